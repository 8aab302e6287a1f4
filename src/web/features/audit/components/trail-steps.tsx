import { Button, Group, Stack, Text } from '@mantine/core';
import type { AuditList } from '#shared/schemas/audit';
import { formatDateTime } from '../../../components/date-text';

/** "From Nov 24, 2026, 2:13:11 PM back to Nov 20, 2026, 9:02:45 AM", and whether nothing older matches. */
function whereInTime(trail: AuditList, timeZone: string): string {
  const first = trail.entries[0];
  const last = trail.entries.at(-1);
  if (!first || !last) return 'Nothing older matches.';
  const when = (at: string) => formatDateTime(at, timeZone, { seconds: true });
  return `From ${when(first.at)} back to ${when(last.at)}${trail.nextBefore ? '' : ': the oldest entries that match.'}`;
}

interface TrailStepsProps {
  trail: AuditList | undefined;
  /** Showing the entries older than a cursor (no page numbers there). */
  byTime: boolean;
  /** The next page is on its way: the cursor shown belongs to the page before. */
  loading: boolean;
  timeZone: string;
  onOlder: (cursor: string) => void;
  onNewest: () => void;
}

/**
 * The trail by time, past the numbered pages: "Older entries" while older ones match, and, once off the
 * numbered pages, where the entries shown fall in time and a way back to the newest.
 */
export function TrailSteps({ trail, byTime, loading, timeZone, onOlder, onNewest }: TrailStepsProps) {
  const nextBefore = trail?.nextBefore;
  if (!byTime && !nextBefore) return null;
  return (
    <Stack gap="xs" align="center" mt="md">
      {byTime && trail ? (
        <Text size="sm" c="dimmed" ta="center" role="status">
          {whereInTime(trail, timeZone)}
        </Text>
      ) : null}
      <Group component="nav" aria-label="Older and newer entries" gap="sm" justify="center">
        {byTime ? (
          <Button variant="default" size="compact-md" onClick={onNewest}>
            Newest entries
          </Button>
        ) : null}
        {nextBefore ? (
          <Button variant="default" size="compact-md" onClick={() => onOlder(nextBefore)} disabled={loading}>
            Older entries
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
