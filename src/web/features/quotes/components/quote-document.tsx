import { Box, Divider, Group, Stack, Text } from '@mantine/core';
import { formatMoney, toCents, type PricedQuote } from '../../../../shared/money';
import classes from './quote-document.module.css';
import { QuoteTotals } from '../../../components/quote-totals';

interface QuoteDocumentProps extends PricedQuote {
  business: { name: string; email: string; phone: string };
  quoteId: string | null;
  clientName: string;
  projectName: string;
  date?: string;
  /** The builder's small live preview (275 px wide) or the client's full page. */
  compact?: boolean;
}

const money = (dollars: number) => formatMoney(toCents(dollars));

/** The quote as the client sees it: business, number, client, project, lines and totals. */
export function QuoteDocument({
  business,
  quoteId,
  clientName,
  projectName,
  date,
  materials,
  labor,
  compact,
  ...totals
}: QuoteDocumentProps) {
  const size = compact ? 'xs' : 'sm';
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
              {new Date(date).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' })}
            </Text>
          ) : null}
        </Group>
        <div>
          <Text size={size}>
            <b>Client:</b> {clientName || '—'}
          </Text>
          <Text size={size}>
            <b>Project:</b> {projectName || '—'}
          </Text>
        </div>
        <Divider label="Materials" labelPosition="left" />
        {materials.length === 0 ? (
          <Text size={size} c="dimmed">
            No materials yet
          </Text>
        ) : (
          materials.map((m, i) => (
            <Group key={i} justify="space-between" wrap="nowrap" gap="xs">
              <Text size={size} className={classes.name}>
                {m.name}{' '}
                <span className={classes.muted}>
                  × {m.quantity} @ {money(m.unitPrice)}
                </span>
              </Text>
              <Text size={size}>{money(m.subtotal)}</Text>
            </Group>
          ))
        )}
        <Divider label="Labor" labelPosition="left" />
        {labor.length === 0 ? (
          <Text size={size} c="dimmed">
            No labor yet
          </Text>
        ) : (
          labor.map((l, i) => (
            <Group key={i} justify="space-between" wrap="nowrap" gap="xs">
              <Text size={size}>
                {l.description || 'Labor'}{' '}
                <span className={classes.muted}>
                  {l.hours} h @ {money(l.hourlyRate)}/h
                </span>
              </Text>
              <Text size={size}>{money(l.total)}</Text>
            </Group>
          ))
        )}
        <Divider />
        <QuoteTotals totals={totals} size={size} totalSize={compact ? 'sm' : 'lg'} totalWeight={800} />
      </Stack>
    </Box>
  );
}
