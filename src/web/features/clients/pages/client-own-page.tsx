import { Alert, Button, Center, Container, Loader, Stack, Text, Title } from '@mantine/core';
import { useParams, useSearchParams } from 'react-router';
import { clientPageMessages } from '#shared/schemas/client-page';
import { EmailMyLink } from '../../../components/email-my-link';
import { hasErrorCode } from '../../../lib/api-client';
import { useHydrated } from '../../../lib/use-hydrated';
import { usePageTitle } from '../../../lib/use-page-title';
import { useClientPage, useConfirmVisit, useFreshLink } from '../api/client-page';
import { ClientPageContent } from '../components/client-page-view';
import layout from '../../../components/layout.module.css';

/** The client's own page from the link in our e-mails (decision 036); an expired link offers a fresh one. */
export default function ClientOwnPage() {
  const id = useParams().clientId ?? '';
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const page = useClientPage(id, token);
  const confirm = useConfirmVisit(id, token);
  usePageTitle('Your page');
  return (
    <Container size={720} className={layout.pagePad}>
      {page.data ? (
        <ClientPageContent
          page={page.data}
          link={{ id, token }}
          confirmVisit={{
            run: (visitId) => confirm.mutate(visitId),
            pending: confirm.isPending ? (confirm.variables ?? null) : null,
            error: confirm.isError ? confirm.error.message : null,
          }}
        />
      ) : page.isError ? (
        hasErrorCode(page.error, 'LINK_EXPIRED') ? (
          <ExpiredLink id={id} token={token} />
        ) : (
          <Stack gap="md">
            <Title order={1}>This page cannot be opened</Title>
            <Text c="red.9" role="alert">
              {page.error.message}
            </Text>
            <EmailMyLink />
          </Stack>
        )
      ) : (
        <Center py="xl">
          <Loader aria-label="Loading your page" />
        </Center>
      )}
    </Container>
  );
}

function ExpiredLink({ id, token }: { id: string; token: string }) {
  const fresh = useFreshLink(id, token);
  const hydrated = useHydrated();
  return (
    <Stack gap="md">
      <Title order={1}>This link has expired</Title>
      <Text>{clientPageMessages.linkExpired}</Text>
      {fresh.isSuccess ? (
        <Alert color="green" title="On its way" role="status">
          {fresh.data.message}
        </Alert>
      ) : (
        <div>
          <Button onClick={() => fresh.mutate()} loading={fresh.isPending} disabled={!hydrated}>
            E-mail me a fresh link
          </Button>
        </div>
      )}
      {fresh.isError ? (
        <Text c="red.9" role="alert">
          {fresh.error.message}
        </Text>
      ) : null}
    </Stack>
  );
}
