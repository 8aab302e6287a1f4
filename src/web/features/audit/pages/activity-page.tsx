import { Alert, Anchor, Button, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import {
  AUDIT_KINDS,
  AUDIT_KIND_LABELS,
  type AuditEntry,
  type AuditKind,
  type AuditRecord,
} from '#shared/schemas/audit';
import { formatDateTime } from '../../../components/date-text';
import { ListTable } from '../../../components/list-table';
import { PageHeader } from '../../../components/page-header';
import { PaginationBar } from '../../../components/pagination-bar';
import { useSiteConfig } from '../../../lib/site-config';
import { hasErrorCode } from '../../../lib/api-client';
import { useAuditTrail } from '../api/audit';
import { TrailSteps } from '../components/trail-steps';
import { readableDetails } from '../lib/readable-details';
import { useTrailParams } from '../hooks/use-trail-params';

const kindOptions = AUDIT_KINDS.map((k) => ({ value: k, label: AUDIT_KIND_LABELS[k] }));

/** The most lines of an entry's details shown; the rest are counted. */
const DETAIL_LINES = 6;

/** What an entry carried, as label and value lines (passwords hidden, photos shortened by the server). */
function Details({ entry }: { entry: AuditEntry }) {
  const lines = readableDetails(entry.details);
  if (lines.length === 0)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const shown = lines.slice(0, DETAIL_LINES);
  return (
    <Stack gap={2} style={{ overflowWrap: 'anywhere' }}>
      {shown.map((line, i) => (
        <Text key={i} size="xs" lineClamp={2}>
          <Text span size="xs" fw={600}>
            {line.label}:
          </Text>{' '}
          {line.value}
        </Text>
      ))}
      {lines.length > DETAIL_LINES ? (
        <Text size="xs" c="dimmed">
          and {lines.length - DETAIL_LINES} more
        </Text>
      ) : null}
    </Stack>
  );
}

const RECORD_PATHS: Record<AuditRecord['kind'], (id: string) => string> = {
  invoice: paths.admin.invoice,
  job: paths.admin.job,
  request: paths.admin.quoteRequest,
};

/** What was done, and to which invoice, job or request: a link while it exists. */
function What({ entry }: { entry: AuditEntry }) {
  const { record } = entry;
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {entry.action}
      </Text>
      {record ? (
        record.exists ? (
          <Anchor component={Link} to={RECORD_PATHS[record.kind](record.id)} size="sm">
            {record.label}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            {record.label}
          </Text>
        )
      ) : null}
    </Stack>
  );
}

/** The audit trail: who did what in the back office, when and from where, newest first. Read-only. */
export default function ActivityPage() {
  const { timeZone } = useSiteConfig();
  const place = useTrailParams();
  const { filters } = place;
  const trail = useAuditTrail(filters);
  const byTime = Boolean(filters.before);
  const filtered = Boolean(filters.userId || filters.kind || filters.from || filters.to);
  const people = (trail.data?.people ?? []).map((p) => ({ value: p.userId, label: p.name }));

  return (
    <>
      <PageHeader title="Activity" />
      <Text c="dimmed" size="sm" mb="md" maw={760}>
        Every action in the back office — sign-ins, changes, sends, payments, settings, backups, exports and imports —
        with who did it, when and from which address. Entries cannot be changed or removed.
      </Text>
      <Paper withBorder radius="lg" p="md" mb="md">
        <Group align="flex-end" gap="sm">
          <Select
            label="Person"
            placeholder="Everyone"
            data={people}
            value={filters.userId ?? null}
            onChange={(v) => place.setFilter({ userId: v ?? undefined })}
            clearable
            searchable
            w={{ base: '100%', sm: 220 }}
          />
          <Select
            label="Kind"
            placeholder="All kinds"
            data={kindOptions}
            value={filters.kind ?? null}
            onChange={(v) => place.setFilter({ kind: (v as AuditKind | null) ?? undefined })}
            clearable
            w={{ base: '100%', sm: 270 }}
          />
          <TextInput
            label="From"
            type="date"
            value={filters.from ?? ''}
            onChange={(e) => place.setFilter({ from: e.currentTarget.value || undefined }, { replace: true })}
            w={{ base: '100%', sm: 170 }}
          />
          <TextInput
            label="To"
            type="date"
            value={filters.to ?? ''}
            onChange={(e) => place.setFilter({ to: e.currentTarget.value || undefined }, { replace: true })}
            w={{ base: '100%', sm: 170 }}
          />
          {filtered ? (
            <Button variant="default" onClick={place.clearFilters}>
              Clear filters
            </Button>
          ) : null}
        </Group>
      </Paper>
      {byTime && hasErrorCode(trail.error, 'VALIDATION_FAILED') ? (
        <Alert color="red" title="This place in the activity could not be found" mb="md">
          The address does not point to a place in the trail. Go back to the newest entries below.
        </Alert>
      ) : trail.isError ? (
        <Alert color="red" title="The activity could not be loaded" mb="md">
          {trail.error.message}
        </Alert>
      ) : null}
      <ListTable
        label="Activity"
        columns={['When', 'Who', 'What', 'Kind', 'From', 'Details']}
        rows={trail.data?.entries}
        loading={trail.isPending}
        rowKey={(e) => e._id}
        empty={filtered ? 'Nothing matches these filters.' : 'Nothing has been done in the back office yet.'}
        actionColumns={0}
        renderRow={(e) => [
          formatDateTime(e.at, timeZone, { seconds: true }),
          e.actorName,
          <What key="a" entry={e} />,
          AUDIT_KIND_LABELS[e.kind as AuditKind] ?? e.kind,
          e.ip,
          <Details key="d" entry={e} />,
        ]}
      />
      {byTime ? null : (
        <PaginationBar page={filters.page} totalPages={trail.data?.totalPages ?? 1} onChange={place.setPage} />
      )}
      <TrailSteps
        trail={trail.data}
        byTime={byTime}
        loading={trail.isPlaceholderData}
        timeZone={timeZone}
        onOlder={place.older}
        onNewest={place.newest}
      />
      {trail.data?.capped ? (
        <Text size="sm" c="dimmed" ta="center" mt="xs">
          More than {trail.data.total.toLocaleString('en-US')} entries match
          {byTime ? '.' : ': the numbered pages show the newest of them. Go on with Older entries, or choose dates.'}
        </Text>
      ) : null}
    </>
  );
}
