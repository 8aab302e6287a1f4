import { Group, Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled card of a back-office detail page (Client Info, Address, Job Quote...). */
export function SectionCard({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Paper>
  );
}
