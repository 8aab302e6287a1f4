import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Grid,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconArrowBackUp, IconPencil, IconUserPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { JobStatus } from '#shared/constants';
import type { JobView } from '#shared/schemas/jobs';
import { ClientLink } from '../../../components/client-link';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ReasonDialog } from '../../../components/reason-dialog';
import { Link, useParams } from 'react-router';
import { messages } from '#shared/messages';
import { paths } from '#shared/paths';
import { JOB_TRANSITIONS } from '#shared/statuses';
import { PageHeader } from '../../../components/page-header';
import { SectionCard } from '../../../components/section-card';
import { QuoteLines } from '../../../components/quote-lines';
import { StatusPill } from '../../../components/status-text';
import { toast } from '../../../lib/toast';
import { useChangeJobStatus, useJob, useUndoCancel } from '../api/jobs';
import { AssignWorkersDialog } from '../components/assign-workers-dialog';
import { jobNumberOf } from '#shared/schemas/jobs';
import { PhotoGallery } from '../../../components/photo-gallery';
import { mapHref, telHref } from '../../../lib/links';
import { JobAddressChoice } from '../components/job-address-choice';

/** What the office's button says for a move from one status to another. */
function actionLabel(from: JobStatus, to: JobStatus): string {
  if (to === 'Cancelled') return 'Cancel job';
  if (from === 'Completed') return 'Reopen job';
  return to === 'In Progress' ? 'Start work' : to === 'Completed' ? 'Mark completed' : 'Reset';
}

export default function JobDetailPage({
  moreSections,
  notices,
  noticesLoading = false,
  beforeCompleting,
}: {
  moreSections?: (job: JobView) => ReactNode;
  /** What the office should act on, shown under the header (another feature's, composed by the app). */
  notices?: (job: JobView) => ReactNode;
  /**
   * What the notices read is still on its way: the page is drawn once it has come, so a notice at the
   * top does not push the page down under the reader's eyes.
   */
  noticesLoading?: boolean;
  /** What "Mark completed" should say first (the crew's checklist items not ticked, from their record). */
  beforeCompleting?: (job: JobView) => ReactNode;
}) {
  const { jobId = '' } = useParams();
  const job = useJob(jobId);
  const changeStatus = useChangeJobStatus(jobId);
  const undo = useUndoCancel(jobId);
  const [assignOpen, assignDialog] = useDisclosure(false);
  const [cancelOpen, cancelDialog] = useDisclosure(false);
  const [completeOpen, completeDialog] = useDisclosure(false);
  const back = { to: paths.admin.jobs, label: 'Back to Jobs' };

  if (job.isPending || (noticesLoading && !job.isError)) {
    return (
      <>
        <PageHeader title="Job" back={back} />
        <Skeleton h={300} radius="lg" />
      </>
    );
  }
  if (job.isError) {
    return (
      <>
        <PageHeader title="Job" back={back} />
        <Paper withBorder radius="lg" p="lg" role="alert">
          <Title order={2} size="h3">
            {messages.jobNotFound}
          </Title>
        </Paper>
      </>
    );
  }

  const j = job.data;
  const next = JOB_TRANSITIONS[j.status];
  const move = (status: JobStatus, extra: { reason?: string } = {}, onDone?: () => void) =>
    changeStatus.mutate(
      { status, ...extra },
      {
        onSuccess: () => {
          toast.success(`Job is now ${status}`);
          onDone?.();
        },
        onError: (e) => toast.error(e.message),
      },
    );
  return (
    <>
      <PageHeader
        title="Job"
        back={back}
        badges={
          <>
            <Badge variant="light" color="gray" c="dark.6" size="lg" ff="monospace">
              {jobNumberOf(j._id)}
            </Badge>
            <StatusPill status={j.status} />
          </>
        }
        actions={
          j.status === 'Cancelled' ? (
            <Button
              variant="outline"
              leftSection={<IconArrowBackUp size={18} aria-hidden />}
              loading={undo.isPending}
              onClick={() =>
                undo.mutate(undefined, {
                  onSuccess: (view) => toast.success(`Cancellation undone: the job is ${view.status} again`),
                  onError: (e) => toast.error(e.message),
                })
              }
            >
              Undo cancel
            </Button>
          ) : next.length ? (
            <Group gap="sm">
              {next.map((status) => (
                <Button
                  key={status}
                  variant={status === 'Cancelled' || j.status === 'Completed' ? 'outline' : 'filled'}
                  color={status === 'Cancelled' ? 'red.9' : status === 'Completed' ? 'success' : 'brand'}
                  loading={changeStatus.isPending && changeStatus.variables?.status === status}
                  onClick={() =>
                    status === 'Cancelled'
                      ? cancelDialog.open()
                      : status === 'Completed' && j.status !== 'Completed'
                        ? completeDialog.open()
                        : move(status)
                  }
                >
                  {actionLabel(j.status, status)}
                </Button>
              ))}
            </Group>
          ) : null
        }
      />
      {j.status === 'Cancelled' && j.cancelReason ? (
        <Alert color="red" title="This job was cancelled" mb="md">
          {j.cancelReason}
        </Alert>
      ) : null}
      {notices?.(j)}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5 }} miw={0}>
          <Stack gap="md">
            <SectionCard title="Client Info">
              {j.companyName ? (
                <Text fw={700} data-testid="job-company" style={{ overflowWrap: 'anywhere' }}>
                  {j.companyName}
                </Text>
              ) : null}
              <Text fw={600}>
                <ClientLink clientId={j.clientId} name={j.contactPerson.name} />
              </Text>
              {j.contactPerson.email ? (
                <Anchor href={`mailto:${j.contactPerson.email}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {j.contactPerson.email}
                </Anchor>
              ) : (
                <Text size="sm" c="dimmed">
                  {messages.noEmail}
                </Text>
              )}
              <Text size="sm">
                {j.contactPerson.phone ? (
                  <Anchor href={telHref(j.contactPerson.phone)}>{j.contactPerson.phone}</Anchor>
                ) : (
                  'No phone number given'
                )}
              </Text>
            </SectionCard>
            <SectionCard title="Client Address">
              <Text>{j.address.street}</Text>
              <Text>
                {j.address.city}, {j.address.state} {j.address.zip}
              </Text>
              <Anchor href={mapHref(j.address)} target="_blank" rel="noreferrer" size="sm" fw={600}>
                Open in Maps
              </Anchor>
              <JobAddressChoice job={j} />
            </SectionCard>
            <SectionCard
              title="Assigned Worker(s)"
              action={
                j.assignedTo.length ? (
                  <ActionIcon variant="subtle" onClick={assignDialog.open} aria-label="Edit the assigned workers">
                    <IconPencil size={18} aria-hidden />
                  </ActionIcon>
                ) : null
              }
            >
              {j.assignedTo.length ? (
                <Stack gap={4}>
                  {j.assignedTo.map((w) => (
                    <Text key={w._id}>{w.fullName}</Text>
                  ))}
                </Stack>
              ) : (
                <Button leftSection={<IconUserPlus size={18} aria-hidden />} onClick={assignDialog.open}>
                  Assign
                </Button>
              )}
            </SectionCard>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }} miw={0}>
          <Stack gap="md">
            <SectionCard
              title="Work to do"
              action={
                j.quoteRequestId ? (
                  <Anchor component={Link} to={paths.admin.quoteRequest(j.quoteRequestId)} size="sm" fw={600}>
                    Open the request
                  </Anchor>
                ) : null
              }
            >
              <Text style={{ whiteSpace: 'pre-wrap' }}>{j.notes || 'No description supplied'}</Text>
            </SectionCard>
            <SectionCard title="Client's Photos">
              <PhotoGallery images={j.photos ?? []} />
            </SectionCard>
            <SectionCard title="Job Quote">
              {j.quote ? <QuoteLines {...j.quote} /> : <Text c="dimmed">No quote is linked to this job.</Text>}
            </SectionCard>
          </Stack>
        </Grid.Col>
      </Grid>
      {moreSections?.(j)}
      <AssignWorkersDialog job={j} opened={assignOpen} onClose={assignDialog.close} />
      <ReasonDialog
        opened={cancelOpen}
        onClose={cancelDialog.close}
        title="Cancel this job?"
        label="Why is the job cancelled?"
        description="Kept with the job, never sent to the client. Visits still to come are cancelled and the client is told; undoing the cancellation books them again."
        confirmLabel="Cancel job"
        loading={changeStatus.isPending}
        onConfirm={(reason) => move('Cancelled', { reason }, cancelDialog.close)}
      />
      {/* Completing sends the client their report and ends the job's visits still to come: asked first,
          as the crew are, with what is left unticked. */}
      <ConfirmDialog
        opened={completeOpen}
        onClose={completeDialog.close}
        title="Mark this job completed?"
        confirmLabel="Mark completed"
        confirmColor="success"
        loading={changeStatus.isPending}
        onConfirm={() => move('Completed', {}, completeDialog.close)}
      >
        <Text size="sm">The client is e-mailed the job report, and visits still to come are cancelled.</Text>
        {completeOpen ? beforeCompleting?.(j) : null}
      </ConfirmDialog>
    </>
  );
}
