import { Group, TextInput } from '@mantine/core';

/** A visit's Start and End times side by side ("09:00"), each with its error. */
export function TimeRange(props: {
  start: string;
  end: string;
  onChange: (times: { start: string; end: string }) => void;
  errors?: { start?: string | undefined; end?: string | undefined };
}) {
  const { start, end, onChange, errors = {} } = props;
  return (
    <Group grow align="flex-start">
      <TextInput
        type="time"
        label="Start"
        withAsterisk
        value={start}
        onChange={(e) => onChange({ start: e.currentTarget.value, end })}
        error={errors.start}
      />
      <TextInput
        type="time"
        label="End"
        withAsterisk
        value={end}
        onChange={(e) => onChange({ start, end: e.currentTarget.value })}
        error={errors.end}
      />
    </Group>
  );
}
