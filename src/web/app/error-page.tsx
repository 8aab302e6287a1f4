import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { paths } from '#shared/paths';

/** Shown when rendering fails: the spec's heading, a plain explanation, and a way back. */
export function ErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;
  return (
    <Container size="sm" py={80}>
      <Stack align="center" ta="center">
        <Title order={1}>Unexpected Application Error!</Title>
        <Text c="dimmed">
          Something went wrong while showing this page. Please reload, or go back to the home page.
        </Text>
        {detail ? (
          <Text size="sm" c="dimmed" ff="monospace">
            {detail}
          </Text>
        ) : null}
        <Button component="a" href={paths.home}>
          Go Home
        </Button>
      </Stack>
    </Container>
  );
}
