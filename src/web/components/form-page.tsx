import { Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePageTitle } from '../lib/use-page-title';

interface FormPageProps {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}

/** A centred, narrow page with a heading and a card holding a form (Get a Quote, Contact, lookup). */
export function FormPage({ title, intro, children }: FormPageProps) {
  usePageTitle(title);
  return (
    <Container size={720} py={{ base: 32, sm: 64 }}>
      <Stack gap="xs" mb="lg">
        <Title order={1}>{title}</Title>
        {intro ? <Text c="dimmed">{intro}</Text> : null}
      </Stack>
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'md', sm: 'xl' }}>
        {children}
      </Paper>
    </Container>
  );
}
