import { Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCalendarPlus } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { addDays, formatLongDate, todayIn } from '#shared/dates';
import type { VisitView } from '#shared/schemas/visits';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import type { UseQueryResult } from '@tanstack/react-query';
import type { VisitInput } from '#shared/schemas/visits';
import { useJobVisits, useRequestVisits, useVisitChanges, type VisitList } from '../api/visits';
import { CancelVisitDialog } from './cancel-visit-dialog';
import { savedToast } from './tell-client-dialog';
import { ChangeSeriesDialog } from './job-plans';
import { blankVisit, repeatsAhead, valuesOf, VisitDialog, type VisitFormValues } from './visit-dialog';

/** A job's visits on its page: book one, move one, cancel one (with a reason). */
export function JobVisits({ jobId, open }: { jobId: string; open: boolean }) {
  const visits = useJobVisits(jobId);
  const { book } = useVisitChanges();
  return (
    <VisitsSection
      title="Visits"
      visits={visits}
      open={open}
      book={async (body) => {
        await book.mutateAsync({ jobId, body });
      }}
    />
  );
}

/**
 * A request's estimate visit on its page (booked online with it, issue 31): moved or cancelled as any
 * visit is while the request is open; nothing when none was booked.
 */
export function RequestVisits({ quoteRequestId, open }: { quoteRequestId: string; open: boolean }) {
  const visits = useRequestVisits(quoteRequestId);
  if (!visits.data?.visits.length) return null;
  return <VisitsSection title="Estimate visit" visits={visits} open={open} />;
}

function VisitsSection({
  title,
  visits,
  open,
  book,
}: {
  title: string;
  visits: UseQueryResult<VisitList>;
  open: boolean;
  /** Booking another: a job's, not a request's. */
  book?: (body: VisitInput) => Promise<void>;
}) {
  const titleId = useId();
  const { change, approve } = useVisitChanges();
  const [dialog, setDialog] = useState<{ visit: VisitView | null } | null>(null);
  const [cancelling, setCancelling] = useState<VisitView | null>(null);
  const [series, setSeries] = useState<VisitView | null>(null);
  const tomorrow = addDays(todayIn(siteConfig().timeZone), 1);
  const blank: VisitFormValues = blankVisit({ date: tomorrow, start: '09:00', end: '11:00' });

  const list = visits.data?.visits ?? [];
  const upcoming = list.filter((v) => !v.cancelled);
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} mt="md" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h3" id={titleId}>
          {title}{' '}
          {upcoming.some((v) => v.awaitingApproval) ? (
            <Badge variant="light" color="orange" c="dark.7" ml={4}>
              To approve
            </Badge>
          ) : upcoming.length ? (
            <Badge variant="light" color="blue" c="dark.7" ml={4}>
              Scheduled
            </Badge>
          ) : null}
        </Title>
        {open && book ? (
          <Button leftSection={<IconCalendarPlus size={18} aria-hidden />} onClick={() => setDialog({ visit: null })}>
            Schedule a visit
          </Button>
        ) : null}
      </Group>
      {visits.isPending ? (
        <Skeleton h={60} />
      ) : list.length === 0 ? (
        <Text c="dimmed">No visits booked yet.</Text>
      ) : (
        <Stack gap="sm">
          {list.map((v) => (
            <Group key={v._id} justify="space-between" wrap="wrap" gap="xs" opacity={v.cancelled ? 0.7 : 1}>
              <div>
                <Text fw={600} td={v.cancelled ? 'line-through' : undefined}>
                  {formatLongDate(v.date)}, {v.start}–{v.end}
                </Text>
                <Text size="sm" c="dimmed">
                  {v.workers.map((w) => w.fullName).join(', ') || 'No crew yet'}
                  {v.notes ? ` · ${v.notes}` : ''}
                </Text>
                {v.clientNote ? <Text size="sm">To the client: {v.clientNote}</Text> : null}
                {!v.cancelled && v.awaitingApproval ? (
                  <Text size="sm" fw={600} c="orange.9">
                    Booked online: waiting for your approval (the client has not had a calendar entry yet)
                  </Text>
                ) : null}
                {!v.cancelled && v.confirmedAt ? (
                  <Text size="sm" fw={600} data-testid="visit-confirmed">
                    ✓ Confirmed by the client
                  </Text>
                ) : null}
                {v.cancelled ? (
                  <Text size="sm" c="red.9">
                    Cancelled{v.cancelReason ? `: ${v.cancelReason}` : ''}
                  </Text>
                ) : null}
              </div>
              {!v.cancelled && open ? (
                <Group gap="xs">
                  {v.awaitingApproval ? (
                    <Button
                      size="xs"
                      color="green.8"
                      loading={approve.isPending && approve.variables === v._id}
                      onClick={() =>
                        approve.mutate(v._id, {
                          onSuccess: () => toast.success('Visit approved: the client is told'),
                          onError: (error) => toast.error(error.message),
                        })
                      }
                    >
                      Approve
                    </Button>
                  ) : null}
                  <Button size="xs" variant="default" onClick={() => setDialog({ visit: v })}>
                    Change
                  </Button>
                  <Button size="xs" variant="outline" color="red.9" onClick={() => setCancelling(v)}>
                    Cancel visit
                  </Button>
                </Group>
              ) : null}
            </Group>
          ))}
        </Stack>
      )}
      <VisitDialog
        opened={dialog !== null}
        title={dialog?.visit ? 'Change the visit' : 'Schedule a visit'}
        submitLabel={dialog?.visit ? 'Save' : 'Book visit'}
        initial={dialog?.visit ? valuesOf(dialog.visit) : blank}
        client={dialog?.visit?.client.name}
        onSubmit={async (body) => {
          if (dialog?.visit) await change.mutateAsync({ visitId: dialog.visit._id, body });
          else await book?.(body);
          toast.success(dialog?.visit ? savedToast(body) : 'Visit booked: the client is told');
        }}
        onClose={() => setDialog(null)}
        onChangeSeries={
          repeatsAhead(dialog?.visit)
            ? () => {
                setSeries(dialog!.visit!);
                setDialog(null);
              }
            : undefined
        }
      />
      <CancelVisitDialog visit={cancelling} onClose={() => setCancelling(null)} />
      <ChangeSeriesDialog visit={series} onClose={() => setSeries(null)} />
    </Paper>
  );
}
