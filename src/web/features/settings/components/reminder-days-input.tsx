import { TextInput } from '@mantine/core';
import { useState } from 'react';

/** "3, 7": days after which a reminder goes (empty: none). */
export function ReminderDaysInput({
  label,
  description,
  value,
  onChange,
  onBlur,
  error,
}: {
  label: string;
  description: string;
  value: number[];
  onChange: (days: number[]) => void;
  onBlur: () => void;
  error: string | undefined;
}) {
  const [text, setText] = useState(value.join(', '));
  return (
    <TextInput
      label={label}
      description={description}
      inputMode="numeric"
      value={text}
      onChange={(e) => {
        const typed = e.currentTarget.value;
        setText(typed);
        onChange(
          typed
            .split(/[\s,]+/)
            .filter(Boolean)
            .map((d) => (/^\d+$/.test(d) ? Number(d) : Number.NaN)),
        );
      }}
      onBlur={onBlur}
      error={error}
    />
  );
}
