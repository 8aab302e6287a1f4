import { Button, Container, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../shared/paths';
import { usePageTitle } from '../lib/use-page-title';

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
    <Container size="sm" py={{ base: 48, sm: 96 }}>
      <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 48 }} radius="lg">
        <Stack align="center" ta="center" gap="md">
          {icon ? (
            <ThemeIcon size={64} radius="xl" color={color} variant="light">
              {icon}
            </ThemeIcon>
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
