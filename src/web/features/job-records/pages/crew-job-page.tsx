import { Alert, Box, Button, Group, List, Loader, Stack, Text } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { paths } from '#shared/paths';
import { jobNumberOf } from '#shared/schemas/jobs';
import { untickedItems, untickedMessage } from '#shared/schemas/job-records';
import { isOpenJob } from '#shared/statuses';
import { formatClock, formatShortDay } from '#shared/dates';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeader } from '../../../components/page-header';
import { ContactLinks } from '../../../components/contact-links';
import { PhotoThumbnails } from '../../../components/photo-thumbnails';
import { SectionCard } from '../../../components/section-card';
import { StatusPill } from '../../../components/status-text';
import { recordCopy, useCrewRecord, useOutbox, useRecordChanges } from '../api/record';
import { OfflineNote } from '../../../components/offline-note';
import { ChecklistSection, MaterialsSection, NotesSection, TimeSection } from '../components/crew-sections';
import { PhotosSection, SignoffSection } from '../components/photos-and-signoff';
import { PendingChip, SaveState } from '../components/save-state';
import type { JobStatus } from '#shared/constants';

/**
 * A job on the crew's phone: the checklist, time, materials, photos, notes and the client's signature,
 * each saved as they go (kept on the phone while there is no signal), then Complete. `more` adds
 * sections after "Where and what" (the app composes them: a Crew lead's crew).
 */
export default function CrewJobPage({ more }: { more?: (jobId: string) => ReactNode } = {}) {
  const jobId = useParams().jobId ?? '';
  const record = useCrewRecord(jobId);
  const changes = useRecordChanges(jobId);
  const outbox = useOutbox();
  const network = useNetwork();
  const [confirming, setConfirming] = useState(false);
  const view = record.view;
  // Completed on this phone, not yet on the server: nothing has been sent to anyone yet.
  const completionWaiting = outbox.pending.some((c) => c.scope === jobId && c.path.endsWith('/complete'));

  const header = (badges?: ReactNode) => (
    <PageHeader
      title={view ? view.job.clientName : 'Job'}
      badges={badges}
      back={{ to: paths.employee.dashboard, label: 'My work' }}
    />
  );
  if (!view)
    return (
      <>
        {header()}
        {record.isError ? (
          <Alert color="red" title="This job could not be loaded">
            <Group justify="space-between">
              <Text size="sm">{record.error.message}</Text>
              <Button size="xs" variant="light" onClick={() => void record.refetch()}>
                Try again
              </Button>
            </Group>
          </Alert>
        ) : (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading the job" />
          </Group>
        )}
      </>
    );

  const closed = !isOpenJob(view.status);
  const props = { record: view, changes, closed };
  const unticked = untickedItems(view.checklist);
  /** "Tick them": back to the checklist, on the first item not ticked (once the dialog has given focus back). */
  const tickThem = () => {
    setConfirming(false);
    window.setTimeout(() => {
      const box = document.querySelector<HTMLInputElement>('#checklist input[type="checkbox"]:not(:checked)');
      box?.scrollIntoView({ block: 'center' });
      box?.focus();
    }, 300);
  };
  return (
    <>
      {header(
        <>
          <Text size="xs" c="dimmed" ff="monospace">
            Job {jobNumberOf(jobId)}
          </Text>
          <StatusPill status={view.status as JobStatus} />
        </>,
      )}
      <Stack gap="md" maw={720}>
        <OfflineNote copies={[recordCopy(jobId)]} mb={0} />
        <SaveState jobId={jobId} />
        <SectionCard title="Where and what">
          <Stack gap={6}>
            {view.job.visitNotes.map((v) => (
              <Alert
                key={v.visitId}
                color="yellow"
                p="xs"
                title={`For the visit ${formatShortDay(v.date)}, ${formatClock(v.start)}`}
              >
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {v.notes}
                </Text>
              </Alert>
            ))}
            <ContactLinks address={view.job.address} phone={view.job.phone} />
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {view.job.description || 'No description supplied'}
            </Text>
            <PhotoThumbnails photos={view.job.photos} />
          </Stack>
        </SectionCard>
        {more?.(jobId)}
        <Box id="checklist">
          <SectionCard title="Checklist">
            <ChecklistSection {...props} />
          </SectionCard>
        </Box>
        <SectionCard title="Time">
          <TimeSection {...props} />
        </SectionCard>
        <SectionCard title="Photos">
          <PhotosSection {...props} fetchedAt={record.dataUpdatedAt} />
        </SectionCard>
        <SectionCard title="Materials used">
          <MaterialsSection {...props} />
        </SectionCard>
        <SectionCard title="Notes">
          <NotesSection {...props} />
        </SectionCard>
        <SectionCard title="Client sign-off">
          <SignoffSection {...props} />
        </SectionCard>
        {view.status === 'Not Started' ? (
          <Button size="lg" onClick={() => void changes.start()}>
            Start work
          </Button>
        ) : closed ? (
          completionWaiting ? (
            <Alert color="orange" title="Completed on this phone" role="status">
              Waiting for signal: the job will be completed and the report sent to {view.job.clientName} and the office
              when the signal returns. Keep this page open or come back to it.
            </Alert>
          ) : (
            <Alert color={view.status === 'Completed' ? 'success' : 'gray'} title={`This job is ${view.status}`}>
              {view.status === 'Completed'
                ? 'The report was sent to the client and the office.'
                : 'Nothing more to record here.'}
            </Alert>
          )
        ) : (
          <Button size="lg" color="success" onClick={() => setConfirming(true)}>
            Complete job
          </Button>
        )}
        <PendingChip jobId={jobId} />
      </Stack>
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Complete this job?"
        confirmLabel={unticked.length ? 'Complete anyway' : 'Complete job'}
        confirmColor="success"
        {...(unticked.length ? { cancelLabel: 'Tick them', onCancel: tickThem } : {})}
        onConfirm={() => {
          void changes.complete();
          setConfirming(false);
        }}
      >
        {unticked.length ? (
          <Alert color="orange" title={untickedMessage(unticked.length)}>
            <List size="sm">
              {unticked.map((item) => (
                <List.Item key={item._id}>{item.text}</List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        <Text size="sm">
          Running timers stop, and the job report goes to {view.job.clientName} and the office
          {view.signature ? '' : ' (the client has not signed)'}.
          {outbox.waiting || !network.online
            ? ' No signal now: it is kept on this phone and sent when the signal returns.'
            : ''}
        </Text>
      </ConfirmDialog>
    </>
  );
}
