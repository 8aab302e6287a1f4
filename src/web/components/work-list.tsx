import { List, Text } from '@mantine/core';

/** A sold quote's lines as the crew reads them: what to do, without prices. */
export function WorkList({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <div>
      <Text size="sm" fw={700} mt={4}>
        Work to do
      </Text>
      <List size="sm" spacing={2}>
        {lines.map((line, i) => (
          <List.Item key={i}>{line}</List.Item>
        ))}
      </List>
    </div>
  );
}
