import { Anchor, Badge, Button, Grid, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { messages } from '#shared/messages';
import { paths } from '#shared/paths';
import { quoteNumberOf } from '#shared/schemas/quote-request';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ReasonDialog } from '../../../components/reason-dialog';
import { formatDate, formatDayOf } from '../../../components/date-text';
import { siteConfig } from '../../../lib/site-config';
import { PageHeader } from '../../../components/page-header';
import { SectionCard } from '../../../components/section-card';
import { StatusPill } from '../../../components/status-text';
import { toast } from '../../../lib/toast';
import { useDecideQuoteRequest, useQuoteRequest } from '../api/staff';
import { hasErrorCode } from '../../../lib/api-client';
import { ClientLink } from '../../../components/client-link';
import { PhotoGallery } from '../../../components/photo-gallery';
import { mapHref, telHref } from '../../../lib/links';
import type { QuoteRequestDetail } from '#shared/schemas/staff-quote-requests';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text component="div">{children}</Text>
    </div>
  );
}

/**
 * One request for the office: details, photos, accept or decline. What follows an acceptance (the
 * quote builder, then the sent quote) belongs to the quotes feature: the app passes it in as
 * `quoteSection` (app/pages/quote-request-page.tsx).
 */
export default function AdminQuoteRequestPage({
  quoteSection,
}: {
  quoteSection?: (request: QuoteRequestDetail) => ReactNode;
}) {
  const { quoteRequestId = '' } = useParams();
  const request = useQuoteRequest(quoteRequestId);
  const { accept, decline } = useDecideQuoteRequest(quoteRequestId);
  const [acceptOpen, acceptDialog] = useDisclosure(false);
  const [declineOpen, declineDialog] = useDisclosure(false);
  const back = { to: paths.admin.quoteRequests, label: 'Back to Quote Requests' };

  if (request.isPending) {
    return (
      <>
        <PageHeader title="Quote Request" back={back} />
        <Stack>
          <Skeleton h={120} radius="lg" />
          <Skeleton h={260} radius="lg" />
        </Stack>
      </>
    );
  }
  if (request.isError) {
    return (
      <>
        <PageHeader title="Quote Request" back={back} />
        <Paper withBorder radius="lg" p="lg" role="alert">
          <Text fw={600}>This quote request could not be found.</Text>
          <Text c="dimmed" size="sm">
            It may have been removed, or the link is wrong.
          </Text>
        </Paper>
      </>
    );
  }

  const q = request.data;
  const onAccept = () =>
    accept.mutate(undefined, {
      onSuccess: () => {
        toast.success(messages.quoteAccepted);
        acceptDialog.close();
      },
      // The spec's toast says it; a request someone else already decided says so in the server's words.
      onError: (error) =>
        toast.error(hasErrorCode(error, 'REQUEST_NOT_PENDING') ? error.message : messages.quoteAcceptError),
    });
  const onDecline = (reason: string) =>
    decline.mutate(
      { clientEmail: q.contactPerson.email, clientName: q.contactPerson.name, reasonForDecline: reason },
      {
        onSuccess: () => {
          toast.success(messages.quoteDeclined);
          declineDialog.close();
        },
        onError: (error) =>
          toast.error(hasErrorCode(error, 'REQUEST_NOT_PENDING') ? error.message : messages.quoteDeclineError),
      },
    );

  return (
    <>
      <PageHeader
        title="Quote Request"
        back={back}
        badges={
          <>
            <Badge variant="light" color="gray" c="dark.6" size="lg" ff="monospace">
              ID {quoteNumberOf(q._id)}
            </Badge>
            <StatusPill status={q.quoteStatus} />
          </>
        }
        actions={
          q.quoteStatus === 'Pending' ? (
            <Group gap="sm">
              <Button leftSection={<IconCheck size={18} aria-hidden />} color="success" onClick={acceptDialog.open}>
                Accept Quote Request
              </Button>
              <Button
                leftSection={<IconX size={18} aria-hidden />}
                color="red.9"
                variant="outline"
                onClick={declineDialog.open}
              >
                Decline Quote Request
              </Button>
            </Group>
          ) : null
        }
      />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            <SectionCard title="Client Info">
              <Stack gap="sm">
                {q.companyName ? (
                  <Field label="Company">
                    <span data-testid="request-company">{q.companyName}</span>
                  </Field>
                ) : null}
                <Field label="Name">
                  <ClientLink clientId={q.clientId} name={q.contactPerson.name || 'No name provided'} />
                </Field>
                <Field label="Email">
                  {q.contactPerson.email ? (
                    <Anchor href={`mailto:${q.contactPerson.email}`} style={{ overflowWrap: 'anywhere' }}>
                      {q.contactPerson.email}
                    </Anchor>
                  ) : (
                    <Text span c="dimmed">
                      {messages.noEmail}
                    </Text>
                  )}
                </Field>
                <Field label="Phone">
                  {q.contactPerson.phone ? (
                    <Anchor href={telHref(q.contactPerson.phone)}>{q.contactPerson.phone}</Anchor>
                  ) : (
                    'No phone number given'
                  )}
                </Field>
              </Stack>
            </SectionCard>
            <SectionCard title="Address">
              <Stack gap="sm">
                <Field label="Street">{q.address.street || 'No street provided'}</Field>
                <Group grow>
                  <Field label="City">{q.address.city || 'No city provided'}</Field>
                  <Field label="State">{q.address.state || 'No state provided'}</Field>
                  <Field label="Zip">{q.address.zip || 'No zip provided'}</Field>
                </Group>
                {q.address.street ? (
                  <Anchor href={mapHref(q.address)} target="_blank" rel="noreferrer" size="sm" fw={600}>
                    Open in Maps
                  </Anchor>
                ) : null}
              </Stack>
            </SectionCard>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <SectionCard title="Job Description">
              <Text style={{ whiteSpace: 'pre-wrap' }}>{q.notes || 'No description supplied'}</Text>
              <Group mt="md" gap="xl">
                <Field label="Preferred End Date">
                  {formatDate(q.preferredEndDate, 'No preferred end date specified')}
                </Field>
                <Field label="Requested">{formatDayOf(q.quoteRequestDate, siteConfig().timeZone)}</Field>
              </Group>
            </SectionCard>
            <SectionCard title="Images">
              <PhotoGallery images={q.images} />
            </SectionCard>
          </Stack>
        </Grid.Col>
      </Grid>

      {quoteSection?.(q)}

      <ConfirmDialog
        opened={acceptOpen}
        onClose={acceptDialog.close}
        title="Confirm Accept"
        confirmLabel="Accept"
        confirmColor="success"
        loading={accept.isPending}
        onConfirm={onAccept}
      >
        <Text>
          {q.contactPerson.email
            ? `An e-mail will be sent to ${q.contactPerson.name || 'the client'} to say that a quote is being prepared.`
            : `${messages.noEmail}: call ${q.contactPerson.name || 'the client'} to say that a quote is being prepared.`}{' '}
          You can then build the quote on this page.
        </Text>
      </ConfirmDialog>
      <ReasonDialog
        opened={declineOpen}
        onClose={declineDialog.close}
        title="Confirm Decline"
        label="What is the reason for declining this quote request?"
        description={q.contactPerson.email ? 'The client receives this reason by e-mail.' : `${messages.noEmail}.`}
        confirmLabel="Decline"
        loading={decline.isPending}
        onConfirm={onDecline}
      />
    </>
  );
}
