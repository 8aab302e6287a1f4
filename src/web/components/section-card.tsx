import { Group, Paper, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

/**
 * A titled card of a back-office detail page (Client Info, Address, Job Quote...); with `region`, a
 * landmark named by its title (a card a person jumps to, such as a client's Texts).
 */
export function SectionCard({
  title,
  action,
  region = false,
  children,
}: {
  title: string;
  action?: ReactNode;
  region?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      {...(region ? { component: 'section' as const, 'aria-labelledby': id } : {})}
    >
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" {...(region ? { id } : {})}>
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Paper>
  );
}
