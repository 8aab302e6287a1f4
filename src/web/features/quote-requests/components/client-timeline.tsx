import { formatArrivalWallTimes } from '#shared/arrival-window';
import { Anchor, Text, Timeline, VisuallyHidden } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { formatLongDate } from '#shared/dates';
import { formatDollars } from '#shared/money';
import type { StatusTimeline, TimelineStep } from '#shared/schemas/status-timeline';
import { statusColor } from '../../../components/status-text';

/** Each step's name as the client reads it; `done` says whether the work behind it is finished. */
function titleOf(step: TimelineStep, workDone: boolean): string {
  switch (step.step) {
    case 'received':
      return 'Request received';
    case 'quoteSent':
      return 'Quote sent';
    case 'accepted':
      return 'Accepted';
    case 'visit':
      return workDone ? 'Visit' : 'Visit booked';
    case 'workDone':
      return 'Work done';
    case 'invoice':
      return step.kind === 'deposit' ? 'Deposit invoice' : 'Invoice';
    case 'paid':
      return 'Paid';
  }
}

/** The colour of an invoice's status, as staff screens colour the same statuses. */
const INVOICE_COLOUR = { Due: 'Sent', 'Partly paid': 'Partially Paid', Paid: 'Paid', Overdue: 'Overdue' } as const;

function StepDetails({ step }: { step: TimelineStep }) {
  const lines: React.ReactNode[] = [];
  if (step.date && step.step === 'visit' && step.window)
    lines.push(formatArrivalWallTimes({ date: step.date, ...step.window }));
  else if (step.date) lines.push(formatLongDate(step.date));
  if (step.invoiceStatus) {
    const facts = [step.number, step.balance !== null ? `Balance ${formatDollars(step.balance)}` : null];
    if (step.dueDate && step.invoiceStatus !== 'Paid') facts.push(`due ${formatLongDate(step.dueDate)}`);
    lines.push(
      <>
        <Text span fw={700} c={statusColor(INVOICE_COLOUR[step.invoiceStatus]).text}>
          {step.invoiceStatus}
        </Text>
        {facts.some(Boolean) ? ` · ${facts.filter(Boolean).join(' · ')}` : null}
      </>,
    );
  } else if (step.number) lines.push(`Quote ${step.number}`);
  return (
    <>
      {lines.map((line, i) => (
        <Text key={i} size="sm" c={i === 0 ? 'dimmed' : undefined}>
          {line}
        </Text>
      ))}
      {step.href ? (
        <Anchor href={step.href} size="sm" fw={600}>
          {LINK_LABELS[step.step] ?? 'Open'}
        </Anchor>
      ) : null}
    </>
  );
}

const LINK_LABELS: Partial<Record<TimelineStep['step'], string>> = {
  quoteSent: 'View your quote',
  workDone: 'Job report (PDF)',
  invoice: 'View your invoice',
};

/** The request's way from received to paid: what is done, when, and the documents (from the e-mailed link). */
export function ClientTimeline({ timeline }: { timeline: StatusTimeline }) {
  const { steps } = timeline;
  const active = steps.findLastIndex((s) => s.done);
  const workDone = steps.some((s) => s.step === 'workDone' && s.done);
  return (
    <Timeline bulletSize={24} lineWidth={2} active={active} color="green">
      {steps.map((step, i) => (
        <Timeline.Item
          key={`${step.step}-${step.kind ?? ''}-${i}`}
          bullet={step.done ? <IconCheck size={14} aria-hidden /> : null}
          title={
            <Text fw={step.done ? 700 : 500} c={step.done ? undefined : 'dimmed'}>
              {titleOf(step, workDone)}
              {step.done ? null : <VisuallyHidden> (not yet)</VisuallyHidden>}
            </Text>
          }
        >
          {step.done ? <StepDetails step={step} /> : null}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
