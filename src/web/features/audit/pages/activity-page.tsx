import { Alert, Button, Code, Group, Paper, Select, Text, TextInput } from '@mantine/core';
import { AUDIT_KINDS, AUDIT_KIND_LABELS, type AuditEntry, type AuditKind } from '#shared/schemas/audit';
import { formatDateTime } from '../../../components/date-text';
import { ListTable } from '../../../components/list-table';
import { PageHeader } from '../../../components/page-header';
import { PaginationBar } from '../../../components/pagination-bar';
import { useSiteConfig } from '../../../lib/site-config';
import { hasErrorCode } from '../../../lib/api-client';
import { useAuditTrail } from '../api/audit';
import { TrailSteps } from '../components/trail-steps';
import { useTrailParams } from '../hooks/use-trail-params';

const kindOptions = AUDIT_KINDS.map((k) => ({ value: k, label: AUDIT_KIND_LABELS[k] }));

/** What an entry carried, in a line: the fields sent (passwords hidden, photos shortened by the server). */
function Details({ entry }: { entry: AuditEntry }) {
  const { changes, ...rest } = entry.details as { changes?: unknown };
  const shown = changes ?? (Object.keys(rest).length ? rest : null);
  if (!shown)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const text = JSON.stringify(shown);
  return (
    <Code block={false} title={text} style={{ whiteSpace: 'normal', wordBreak: 'break-word', fontSize: 12 }}>
      {text.length > 160 ? `${text.slice(0, 160)}…` : text}
    </Code>
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
          <Text key="a" size="sm" fw={600}>
            {e.action}
          </Text>,
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
