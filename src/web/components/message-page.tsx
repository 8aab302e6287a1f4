import { Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { usePageTitle } from '../lib/use-page-title';
import layout from './layout.module.css';
import classes from './message-page.module.css';

interface MessagePageProps {
  title: string;
  /** A short heading above the title, e.g. "404". */
  eyebrow?: string;
  icon?: ReactNode;
  color?: string;
  children?: ReactNode;
  actions?: ReactNode;
}

/** A centred card with a heading, a message and follow-up buttons (thank-you, 404, 401 pages). */
export function MessagePage({ title, eyebrow, icon, color = 'brand', children, actions }: MessagePageProps) {
  usePageTitle(title);
  return (
    <Container size="sm" className={layout.pagePadLoose}>
      <Paper withBorder shadow="sm" radius="lg" className={layout.cardPadRoomy}>
        <Stack align="center" ta="center" gap="md">
          {icon ? (
            <span
              className={classes.icon}
              style={
                {
                  '--icon-bg': `var(--mantine-color-${color}-light)`,
                  '--icon-color': `var(--mantine-color-${color}-light-color)`,
                } as CSSProperties
              }
            >
              {icon}
            </span>
          ) : null}
          {eyebrow ? (
            <Text fw={700} c="dimmed" tt="uppercase" size="sm">
              {eyebrow}
            </Text>
          ) : null}
          <Title order={1}>{title}</Title>
          {children}
          {actions ? (
            <Group justify="center" mt="sm">
              {actions}
            </Group>
          ) : null}
        </Stack>
      </Paper>
    </Container>
  );
}

export function HomeAndContactButtons() {
  return (
    <>
      <Button component={Link} to={paths.home}>
        Go Home
      </Button>
      <Button component={Link} to={paths.contact} variant="outline">
        Contact
      </Button>
    </>
  );
}
