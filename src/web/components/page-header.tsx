import { Anchor, Group, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { usePageTitle } from '../lib/use-page-title';

interface PageHeaderProps {
  title: string;
  /** Badges beside the title (id, status). */
  badges?: ReactNode;
  actions?: ReactNode;
  back?: { to: string; label: string };
}

/** The top of a back-office page: an optional back link, the title with badges, and actions. */
export function PageHeader({ title, badges, actions, back }: PageHeaderProps) {
  usePageTitle(title);
  return (
    <Stack gap="xs" mb="lg">
      {back ? (
        <Anchor
          component={Link}
          to={back.to}
          size="sm"
          fw={600}
          style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
        >
          <IconArrowLeft size={16} aria-hidden /> {back.label}
        </Anchor>
      ) : null}
      <Group justify="space-between" align="center" gap="sm">
        <Group gap="sm" align="center">
          <Title order={1} size="h2">
            {title}
          </Title>
          {badges}
        </Group>
        {actions}
      </Group>
    </Stack>
  );
}
