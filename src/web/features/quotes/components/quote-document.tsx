import { Badge, Box, Checkbox, Divider, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { quoteClientRows } from '#shared/bill-to';
import { formatLongDate } from '#shared/dates';
import { formatDollars, formatMoney, type PricedQuote } from '#shared/money';
import { formatDayOf } from '../../../components/date-text';
import { useSiteConfig } from '../../../lib/site-config';
import classes from './quote-document.module.css';
import { QuoteTotals } from '../../../components/quote-totals';

export type LineKind = 'materials' | 'labor';

interface QuoteDocumentProps extends PricedQuote {
  business: { name: string; email: string; phone: string };
  quoteId: string | null;
  clientName: string;
  projectName: string;
  date?: string;
  validUntil?: string | undefined;
  /** The builder's small live preview (275 px wide) or the client's full page. */
  compact?: boolean;
  /** When given, the client ticks the optional lines to include (the totals follow). */
  onToggle?: ((kind: LineKind, index: number, included: boolean) => void) | undefined;
  /** The options shown but not yet tickable: the page the server drew, until the app runs (a tick then would be undone). */
  togglesDisabled?: boolean | undefined;
  /** Only the lines counted (an accepted quote shows what was chosen). */
  includedOnly?: boolean;
  /** The deposit asked on acceptance, in cents, on the totals shown (printed right under the total). */
  depositDueCents?: number | null | undefined;
  /** Notes the client reads, under the totals. */
  notes?: string | undefined;
  /** The client's purchase-order number. */
  poNumber?: string | undefined;
  /** Who it is for beyond the name, as sent (decision 037): '' or left out when none. */
  companyName?: string | undefined;
  billingAddress?: string | undefined;
  serviceAddress?: string | undefined;
}

/** The quote as the client sees it: business, number, client, project, lines (optional ones marked) and totals. */
export function QuoteDocument({
  business,
  quoteId,
  clientName,
  projectName,
  date,
  validUntil,
  materials,
  labor,
  compact,
  onToggle,
  togglesDisabled,
  includedOnly,
  depositDueCents,
  notes,
  poNumber,
  companyName,
  billingAddress,
  serviceAddress,
  ...totals
}: QuoteDocumentProps) {
  const size = compact ? 'xs' : 'sm';
  // The quote's day on the business's calendar, as its PDF says it: not the server's (UTC) or the reader's.
  const { timeZone } = useSiteConfig();

  function line(
    kind: LineKind,
    index: number,
    entry: { optional: boolean; included: boolean },
    label: ReactNode,
    detail: string,
    amount: number,
  ) {
    const name = (
      <Text size={size} className={classes.name} component="span">
        {label} <span className={classes.muted}>{detail}</span>
      </Text>
    );
    return (
      <Group
        key={`${kind}-${index}`}
        justify="space-between"
        wrap="nowrap"
        gap="xs"
        className={entry.optional && !entry.included ? classes.excluded : undefined}
      >
        {entry.optional && onToggle ? (
          <Checkbox
            checked={entry.included}
            disabled={togglesDisabled}
            onChange={(e) => onToggle(kind, index, e.currentTarget.checked)}
            label={
              <>
                {name}{' '}
                <Badge size="xs" variant="light" color="orange" c="dark.7" component="span">
                  Optional
                </Badge>
              </>
            }
          />
        ) : (
          <div>
            {name}
            {entry.optional ? (
              <>
                {' '}
                <Badge size="xs" variant="light" color="orange" c="dark.7" component="span">
                  {entry.included ? 'Optional, included' : 'Optional'}
                </Badge>
              </>
            ) : null}
          </div>
        )}
        <Text size={size} className={classes.amount}>
          {formatDollars(amount)}
        </Text>
      </Group>
    );
  }

  const shownMaterials = materials.map((m, i) => ({ m, i })).filter(({ m }) => !includedOnly || m.included);
  const shownLabor = labor.map((l, i) => ({ l, i })).filter(({ l }) => !includedOnly || l.included);
  return (
    <Box
      className={compact ? `${classes.paper} ${classes.compact}` : classes.paper}
      aria-label="Quote preview"
      role="region"
    >
      <Box className={classes.header}>
        <Text fw={800} size={compact ? 'md' : 'xl'} c="white">
          {business.name}
        </Text>
        <Text size={size} c="gray.2">
          {business.email} · {business.phone}
        </Text>
      </Box>
      <Stack gap={compact ? 6 : 'sm'} p={compact ? 'sm' : 'lg'}>
        <Group justify="space-between" gap={4}>
          <Text size={size} fw={700}>
            Quote No. {quoteId ?? 'TBD'}
          </Text>
          {date ? (
            <Text size={size} c="dimmed">
              {formatDayOf(date, timeZone)}
            </Text>
          ) : null}
        </Group>
        <div>
          {quoteClientRows({
            clientName: clientName || '—',
            companyName: companyName ?? '',
            billingAddress: billingAddress ?? '',
            serviceAddress: serviceAddress ?? '',
          }).map(([label, value]) => (
            <Text size={size} key={label} style={{ overflowWrap: 'anywhere' }}>
              <b>{label}:</b> {value}
            </Text>
          ))}
          <Text size={size}>
            <b>Project:</b> {projectName || '—'}
          </Text>
          {poNumber ? (
            <Text size={size}>
              <b>PO No.:</b> {poNumber}
            </Text>
          ) : null}
          {validUntil ? (
            <Text size={size}>
              <b>Valid until:</b> {formatLongDate(validUntil)}
            </Text>
          ) : null}
        </div>
        {/* A sent quote without materials (or labor) shows no empty section; the builder's draft says what is missing. */}
        {shownMaterials.length > 0 || compact ? <Divider label="Materials" labelPosition="left" /> : null}
        {shownMaterials.length === 0 ? (
          compact ? (
            <Text size={size} c="dimmed">
              No materials yet
            </Text>
          ) : null
        ) : (
          shownMaterials.map(({ m, i }) =>
            line('materials', i, m, m.name, `× ${m.quantity} @ ${formatDollars(m.unitPrice)}`, m.subtotal),
          )
        )}
        {shownLabor.length > 0 || compact ? <Divider label="Labor" labelPosition="left" /> : null}
        {shownLabor.length === 0 ? (
          compact ? (
            <Text size={size} c="dimmed">
              No labor yet
            </Text>
          ) : null
        ) : (
          shownLabor.map(({ l, i }) =>
            line(
              'labor',
              i,
              l,
              l.description || 'Labor',
              l.flat ? 'Flat price' : `${l.hours} h @ ${formatDollars(l.hourlyRate)}/h`,
              l.total,
            ),
          )
        )}
        <Divider />
        <QuoteTotals totals={totals} size={size} totalSize={compact ? 'sm' : 'lg'} totalWeight={800} />
        {depositDueCents != null ? (
          <Group justify="space-between" gap="xs" wrap="nowrap" className={classes.deposit} aria-live="polite">
            <Text size={size} fw={700}>
              Deposit due on acceptance:
            </Text>
            <Text size={size} fw={700}>
              {formatMoney(depositDueCents)}
            </Text>
          </Group>
        ) : null}
        {notes ? (
          <>
            <Divider label="Notes" labelPosition="left" />
            <Text size={size} className={classes.notes}>
              {notes}
            </Text>
          </>
        ) : null}
      </Stack>
    </Box>
  );
}
