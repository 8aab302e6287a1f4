import { Box, Text } from '@mantine/core';
import type { InvoiceStatus, JobStatus, QuoteRequestStatus } from '#shared/constants';

/**
 * Status colours of spec section 4 (Accepted green, Pending yellow, Declined red, Quote Sent blue;
 * jobs: Not Started yellow, In Progress blue, Completed green, Cancelled red), in shades dark
 * enough to read on white.
 */
const COLORS: Record<QuoteRequestStatus | JobStatus | InvoiceStatus, { text: string; dot: string }> = {
  Accepted: { text: '#2b7a3b', dot: '#40c057' },
  Completed: { text: '#2b7a3b', dot: '#40c057' },
  Pending: { text: '#855d00', dot: '#fab005' },
  'Not Started': { text: '#855d00', dot: '#fab005' },
  Declined: { text: '#c92a2a', dot: '#fa5252' },
  Cancelled: { text: '#c92a2a', dot: '#fa5252' },
  'Quote Sent': { text: '#1864ab', dot: '#339af0' },
  'In Progress': { text: '#1864ab', dot: '#339af0' },
  // Invoices (issue 17): paid green, sent blue, partly paid yellow, overdue red, draft and void grey.
  Paid: { text: '#2b7a3b', dot: '#40c057' },
  Sent: { text: '#1864ab', dot: '#339af0' },
  'Partially Paid': { text: '#855d00', dot: '#fab005' },
  Overdue: { text: '#c92a2a', dot: '#fa5252' },
  Draft: { text: '#495057', dot: '#adb5bd' },
  Void: { text: '#495057', dot: '#868e96' },
};

export function statusColor(status: string | undefined) {
  return COLORS[status as QuoteRequestStatus] ?? { text: '#495057', dot: '#adb5bd' };
}

/** A status in its colour; `colourOf` lends another status's colour to words of the client's (e.g. "Visit booked"). */
export function StatusText({
  status,
  size = 'lg',
  colourOf = status,
}: {
  status: string | undefined;
  size?: string;
  colourOf?: string | undefined;
}) {
  const color = statusColor(colourOf);
  return (
    <Text span fw={700} size={size} c={color.text} style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      <Box
        component="span"
        aria-hidden
        w={10}
        h={10}
        style={{ borderRadius: '50%', background: color.dot, display: 'inline-block' }}
      />
      {status ?? 'Unknown'}
    </Text>
  );
}

/** The coloured pill beside a title (quote request, job); `label` words the status for a client (its colour stays). */
export function StatusPill({ status, label }: { status: string | undefined; label?: string }) {
  const color = statusColor(status);
  return (
    <Box
      component="span"
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 6,
        padding: '4px 12px',
        borderRadius: 999,
        border: `1px solid ${color.dot}`,
        background: `color-mix(in srgb, ${color.dot} 14%, white)`,
        color: color.text,
        fontWeight: 700,
        fontSize: 14,
      }}
    >
      <Box component="span" aria-hidden w={8} h={8} style={{ borderRadius: '50%', background: color.dot }} />
      {label ?? status ?? 'Unknown'}
    </Box>
  );
}
