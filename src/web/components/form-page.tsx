import { Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePageTitle } from '../lib/use-page-title';
import layout from './layout.module.css';

interface FormPageProps {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}

/** A centred, narrow page with a heading and a card holding a form (Get a Quote, Contact, lookup). */
export function FormPage({ title, intro, children }: FormPageProps) {
  usePageTitle(title);
  return (
    <Container size={720} className={layout.pagePad}>
      <Stack gap="xs" mb="lg">
        <Title order={1}>{title}</Title>
        {intro ? <Text c="dimmed">{intro}</Text> : null}
      </Stack>
      <Paper withBorder shadow="sm" radius="lg" className={layout.cardPad}>
        {children}
      </Paper>
    </Container>
  );
}
