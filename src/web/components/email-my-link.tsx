import { Alert, Box, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useId, type FormEvent } from 'react';
import { publicApi } from '../lib/api-client';
import { useHydrated } from '../lib/use-hydrated';

/**
 * "E-mail me my link" (decision 036): the link to the client's own page, sent only to an address on
 * file. The answer is the same whether or not it is.
 */
export function EmailMyLink() {
  const hydrated = useHydrated();
  const heading = useId();
  const send = useMutation({
    mutationFn: (address: string) =>
      publicApi<{ message: string }>('POST', '/client-page/link', { body: { email: address } }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Read from the form (the field is uncontrolled): what was typed before the app took over is kept.
    send.mutate(String(new FormData(event.currentTarget).get('email') ?? '').trim());
  };
  return (
    <Box
      component="section"
      aria-labelledby={heading}
      mt="lg"
      pt="md"
      style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Title order={2} size="h4" id={heading} mb={4}>
        Your page with us
      </Title>
      <Text size="sm" mb="sm">
        All your requests, quotes, visits and invoices are on one page. We can e-mail you the link to it.
      </Text>
      {send.isSuccess ? (
        <Alert color="green" title="Check your inbox" role="status">
          {send.data.message}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="xs">
            <TextInput
              label="Your e-mail address"
              type="email"
              autoComplete="email"
              required
              name="email"
              error={send.isError ? send.error.message : undefined}
            />
            <div>
              <Button type="submit" variant="light" loading={send.isPending} disabled={!hydrated}>
                E-mail me my link
              </Button>
            </div>
          </Stack>
        </form>
      )}
    </Box>
  );
}
