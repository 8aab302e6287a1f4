import { Badge, Button, Group, Paper, Skeleton, Stack, Text, Timeline, Title } from '@mantine/core';
import {
  IconCalendarEvent,
  IconCalendarX,
  IconCheck,
  IconChevronUp,
  IconDots,
  IconEye,
  IconFilePencil,
  IconMail,
  IconMessage,
  IconMessageQuestion,
  IconMessageReply,
  IconPlus,
  IconRefresh,
  IconSend,
  IconTool,
  IconX,
  IconBell,
} from '@tabler/icons-react';
import { useRef, type ReactNode } from 'react';
import { TIMELINE_EARLIER_CAP, type ActivityEvent, type ActivityKind, type MailState } from '#shared/schemas/activity';
import { formatDollars } from '#shared/money';
import { formatDateTime } from '../../../components/date-text';
import { hasErrorCode } from '../../../lib/api-client';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { stepsOf, useRequestTimeline, useSendAgain, useTextInstead } from '../api/timeline';

const money = (dollars: unknown) => (typeof dollars === 'number' ? formatDollars(dollars) : '');

/** What each step is called, and its mark. */
const STEPS: Record<ActivityKind, { title: (e: ActivityEvent) => string; icon: ReactNode; color: string }> = {
  'request-created': {
    title: (e) => (e.details.enteredBy === 'office' ? 'Request entered by the office' : 'Request received'),
    icon: <IconPlus size={14} />,
    color: 'gray',
  },
  'request-accepted': { title: () => 'Request accepted', icon: <IconCheck size={14} />, color: 'teal' },
  'request-declined': { title: () => 'Request declined', icon: <IconX size={14} />, color: 'red' },
  'quote-sent': {
    title: (e) => `Quote ${e.quoteNumber} sent (${money(e.details.total)})`,
    icon: <IconSend size={14} />,
    color: 'blue',
  },
  'quote-revised': {
    title: (e) => `Revised quote ${e.quoteNumber} sent (${money(e.details.total)})`,
    icon: <IconFilePencil size={14} />,
    color: 'blue',
  },
  'quote-opened': { title: (e) => `Client opened quote ${e.quoteNumber}`, icon: <IconEye size={14} />, color: 'gray' },
  question: { title: () => 'Client asked a question', icon: <IconMessageQuestion size={14} />, color: 'yellow' },
  answer: { title: () => 'Answer sent', icon: <IconMessageReply size={14} />, color: 'blue' },
  reminder: {
    title: (e) =>
      `Reminder ${typeof e.details.due === 'string' ? `for ${formatDateTime(e.details.due, siteConfig().timeZone)}` : ''}`,
    icon: <IconBell size={14} />,
    color: 'gray',
  },
  'quote-accepted': {
    title: (e) => `Client accepted quote ${e.quoteNumber} (${money(e.details.total)})`,
    icon: <IconCheck size={14} />,
    color: 'green',
  },
  'quote-declined': { title: (e) => `Client declined quote ${e.quoteNumber}`, icon: <IconX size={14} />, color: 'red' },
  'update-requested': {
    title: (e) => `Client asked for an updated quote (${e.quoteNumber} expired)`,
    icon: <IconRefresh size={14} />,
    color: 'orange',
  },
  'job-created': { title: () => 'Job created', icon: <IconTool size={14} />, color: 'green' },
  'estimate-booked': {
    title: (e) =>
      `${e.details.awaitingApproval ? 'Client asked for an estimate visit, to approve' : 'Client booked an estimate visit'}${typeof e.details.when === 'string' ? `: ${e.details.when}` : ''}`,
    icon: <IconCalendarEvent size={14} />,
    color: 'green',
  },
  'visit-moved': {
    title: (e) => `Client moved a visit${typeof e.details.to === 'string' ? ` to ${e.details.to}` : ''}`,
    icon: <IconCalendarEvent size={14} />,
    color: 'orange',
  },
  'visit-cancelled': {
    title: (e) => `Client cancelled the visit${typeof e.details.was === 'string' ? ` of ${e.details.was}` : ''}`,
    icon: <IconCalendarX size={14} />,
    color: 'red',
  },
};

const MAIL_LABELS: Record<MailState, { label: string; color: string }> = {
  scheduled: { label: 'E-mail scheduled', color: 'gray' },
  queued: { label: 'E-mail queued', color: 'yellow' },
  sent: { label: 'E-mail sent', color: 'green' },
  failing: { label: 'E-mail failing', color: 'red' },
  cancelled: { label: 'E-mail called off', color: 'gray' },
};

function MailLine({
  event,
  quoteRequestId,
  canText,
}: {
  event: ActivityEvent;
  quoteRequestId: string;
  /** The client takes texts: a failing e-mail may be sent by text instead. */
  canText: boolean;
}) {
  const sendAgain = useSendAgain(quoteRequestId);
  const textInstead = useTextInstead(quoteRequestId);
  const mail = event.mail!;
  const zone = siteConfig().timeZone;
  const state = MAIL_LABELS[mail.state];
  return (
    <Stack gap={4} mt={4}>
      <Group gap="xs" wrap="wrap">
        <Badge
          size="sm"
          variant="light"
          color={state.color}
          c="dark.7"
          leftSection={<IconMail size={12} aria-hidden />}
        >
          {state.label}
        </Badge>
        <Text size="xs" c="dimmed">
          to {mail.to}
          {mail.state === 'sent' && mail.sentAt ? `, ${formatDateTime(mail.sentAt, zone)}` : ''}
          {mail.state === 'scheduled' && mail.nextAttemptAt ? `, goes ${formatDateTime(mail.nextAttemptAt, zone)}` : ''}
        </Text>
      </Group>
      {mail.state === 'failing' ? (
        <Group gap="xs" wrap="wrap">
          <Text size="xs" c="red.9">
            {mail.lastError} (tried {mail.attempts} {mail.attempts === 1 ? 'time' : 'times'}
            {mail.nextAttemptAt ? `; next try ${formatDateTime(mail.nextAttemptAt, zone)}` : ''})
          </Text>
          <Button
            size="compact-xs"
            variant="light"
            loading={sendAgain.isPending}
            onClick={() =>
              sendAgain.mutate(mail._id, {
                onSuccess: () => toast.success('Sending the e-mail again'),
                onError: (error) =>
                  toast.error(
                    hasErrorCode(error, 'MAIL_NOT_RETRYABLE') ? error.message : 'The e-mail could not be sent again',
                  ),
              })
            }
          >
            Send again
          </Button>
          {canText && !mail.textedInstead ? (
            <Button
              size="compact-xs"
              variant="light"
              leftSection={<IconMessage size={12} aria-hidden />}
              loading={textInstead.isPending}
              onClick={() =>
                textInstead.mutate(event._id, {
                  onSuccess: () => toast.success('Texting the client that the e-mail did not reach them'),
                  onError: (error) =>
                    toast.error(
                      hasErrorCode(error, 'CONFLICT', 'NOT_FOUND') ? error.message : 'The text could not be sent',
                    ),
                })
              }
            >
              Send by text instead
            </Button>
          ) : null}
        </Group>
      ) : null}
      {mail.textedInstead ? (
        <Text size="xs" c="dimmed">
          Sent by text instead: see the texts about this request
        </Text>
      ) : null}
    </Stack>
  );
}

/** How many earlier steps are not shown, in words ("10,000 or more" where the count stops). */
function notShown(earlier: number) {
  const n = earlier.toLocaleString('en-US');
  return `${earlier >= TIMELINE_EARLIER_CAP ? `${n} or more` : n} earlier ${earlier === 1 ? 'step' : 'steps'} not shown`;
}

/** A request's history: what happened, who did it, and each e-mail's delivery; the newest steps first. */
export function RequestTimeline({ quoteRequestId }: { quoteRequestId: string }) {
  const timeline = useRequestTimeline(quoteRequestId);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const zone = siteConfig().timeZone;
  const events = timeline.data ? stepsOf(timeline.data.pages) : [];
  const earlier = timeline.data?.pages.at(-1)?.earlier ?? 0;
  // Read with the newest page (the first asked for, and asked again on every refresh).
  const canText = timeline.data?.pages[0]?.canText ?? false;
  const showEarlier = async () => {
    const result = await timeline.fetchNextPage();
    // The button is gone once everything is shown: keep the keyboard's place in the section.
    if (!result.hasNextPage && !result.isError) titleRef.current?.focus();
  };
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      mt="md"
      component="section"
      aria-labelledby="timeline-title"
      // Long e-mail addresses wrap instead of pushing the page sideways on a phone.
      style={{ overflowWrap: 'anywhere' }}
    >
      <Title order={2} size="h3" mb="md" id="timeline-title" ref={titleRef} tabIndex={-1}>
        Timeline
      </Title>
      {timeline.isPending ? (
        <Skeleton h={120} />
      ) : !timeline.data ? (
        <Text c="dimmed">The timeline could not be loaded.</Text>
      ) : events.length === 0 ? (
        <Text c="dimmed">Nothing has happened yet.</Text>
      ) : (
        <Timeline bulletSize={24} lineWidth={2} active={events.length}>
          {timeline.hasNextPage ? (
            // Where the history goes on: a dashed line up to the steps not shown yet.
            <Timeline.Item bullet={<IconDots size={14} aria-hidden />} color="gray" lineVariant="dashed">
              <Stack gap={6} align="flex-start">
                <Text size="sm" c="dimmed">
                  {timeline.isFetchNextPageError ? 'The earlier steps could not be loaded.' : notShown(earlier)}
                </Text>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconChevronUp size={14} aria-hidden />}
                  loading={timeline.isFetchingNextPage}
                  onClick={() => void showEarlier()}
                >
                  Show earlier steps
                </Button>
              </Stack>
            </Timeline.Item>
          ) : null}
          {events.map((event) => {
            const step = STEPS[event.kind];
            return (
              <Timeline.Item key={event._id} bullet={step.icon} color={step.color} title={step.title(event)}>
                <Text size="xs" c="dimmed">
                  {formatDateTime(event.at, zone)}
                  {event.actorName ? ` · ${event.actorName}` : event.actor === 'client' ? ' · client' : ''}
                </Text>
                {event.kind === 'quote-accepted' && typeof event.details.signatureName === 'string' ? (
                  <Text size="sm">
                    Signed “{event.details.signatureName}” from {String(event.details.ip ?? 'an unknown address')}
                  </Text>
                ) : null}
                {event.message ? (
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {event.message}
                  </Text>
                ) : null}
                {event.mail ? <MailLine event={event} quoteRequestId={quoteRequestId} canText={canText} /> : null}
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
    </Paper>
  );
}
