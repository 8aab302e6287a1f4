import { Alert, Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';

/** A secret the server gives this once (an API key, a webhook's signing secret): to copy, then Done. */
export function SecretShownOnce({
  title,
  note,
  label,
  value,
  onDone,
}: {
  title: string;
  note: string;
  label: string;
  value: string;
  onDone: () => void;
}) {
  return (
    <Alert
      color="green"
      title={
        <Text span inherit c="var(--mantine-color-text)">
          {title}
        </Text>
      }
    >
      <Stack gap="xs">
        <Text size="sm">{note}</Text>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput
            label={label}
            readOnly
            value={value}
            style={{ flex: '1 1 16rem' }}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            onFocus={(e) => e.currentTarget.select()}
          />
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onDone}>Done</Button>
        </Group>
      </Stack>
    </Alert>
  );
}
