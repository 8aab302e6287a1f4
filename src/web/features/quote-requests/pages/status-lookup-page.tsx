import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { messages } from '#shared/messages';
import { paths } from '#shared/paths';
import { EmailMyLink } from '../../../components/email-my-link';
import { FormPage } from '../../../components/form-page';
import { ApiError } from '../../../lib/api-client';
import { WhenHydrated } from '../../../lib/use-hydrated';
import { quoteStatusQuery } from '../api/quote-status';

export default function StatusLookupPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string>();
  const [checking, setChecking] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Read from the form (the field is uncontrolled): what was typed before the app took over the
    // page the server sent is kept.
    const number = String(new FormData(event.currentTarget).get('quoteNumber') ?? '').trim();
    if (!number) {
      setError(messages.quoteNumberRequired);
      return;
    }
    setChecking(true);
    try {
      await queryClient.fetchQuery({ ...quoteStatusQuery(number), retry: false });
      navigate(paths.quoteRequestStatusOf(number));
    } catch (error) {
      // Only the server's "no such number" means the number is wrong; a failure or no signal does not.
      setError(error instanceof ApiError && error.status === 404 ? messages.quoteNumberInvalid : messages.lookupFailed);
    } finally {
      setChecking(false);
    }
  };

  return (
    <FormPage
      title="Check The Status of Your Quote Request"
      intro="If you have a quote request number, you can check your quote request status here."
    >
      <form onSubmit={onSubmit} noValidate aria-label="Quote request status">
        <Stack>
          <TextInput
            label="Quote Number"
            placeholder="Q000000000"
            description="It is in the e-mail we sent when you asked for a quote (Q…), or on your quote (QT…)."
            name="quoteNumber"
            onChange={() => setError(undefined)}
            error={error}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            size="md"
          />
          <WhenHydrated>
            {(hydrated) => (
              <Button type="submit" size="md" loading={checking} disabled={!hydrated}>
                Check Quote Request Status
              </Button>
            )}
          </WhenHydrated>
          <Text size="sm" ta="center">
            Don&apos;t have a quote request yet?{' '}
            <Anchor component={Link} to={paths.getAQuote} fw={600}>
              Submit one here!
            </Anchor>
          </Text>
        </Stack>
      </form>
      <EmailMyLink />
    </FormPage>
  );
}
