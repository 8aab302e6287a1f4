import { Alert, Badge, Button, FileInput, Group, List, Stack, Table, Text } from '@mantine/core';
import { IconDownload, IconFileImport } from '@tabler/icons-react';
import { useState } from 'react';
import {
  CLIENT_IMPORT_MAX_BYTES,
  CLIENT_IMPORT_TEMPLATE,
  IMPORT_FIELD_LABELS,
  type ClientImportPreview,
  type ClientImportResult,
} from '#shared/schemas/client-import';
import { ScrollTable } from '../../../components/scroll-table';
import { SectionCard } from '../../../components/section-card';
import { saveBlob } from '../../../lib/download';
import { toast } from '../../../lib/toast';
import { useImportClients, usePreviewImport } from '../api/data';

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function downloadTemplate() {
  const example = [
    'Dana Whitfield',
    'dana@example.com',
    '(916) 555-0142',
    '12 Elm St',
    'Sacramento',
    'CA',
    '95814',
    '',
  ];
  const text = `\uFEFF${CLIENT_IMPORT_TEMPLATE.join(',')}\r\n${example.join(',')}\r\n`;
  saveBlob(new Blob([text], { type: 'text/csv' }), 'clients-template.csv');
}

function Refused({ rows }: { rows: { row: number; reason: string }[] }) {
  if (rows.length === 0) return null;
  return (
    <Alert color="red" variant="light" title={`${plural(rows.length, 'row')} will not be imported`}>
      <List size="sm" spacing={2}>
        {rows.slice(0, 50).map((r) => (
          <List.Item key={r.row}>
            Row {r.row}: {r.reason}
          </List.Item>
        ))}
      </List>
      {rows.length > 50 ? (
        <Text size="sm" mt="xs">
          … and {plural(rows.length - 50, 'more row')}.
        </Text>
      ) : null}
    </Alert>
  );
}

function Preview({ preview }: { preview: ClientImportPreview }) {
  return (
    <Stack gap="sm">
      <Text size="sm">
        <Badge variant="light" tt="none" mr="xs">
          {preview.source}
        </Badge>
        {plural(preview.rows, 'row')} → {plural(preview.clients, 'client')}:{' '}
        {preview.newClients.toLocaleString('en-US')} new, {preview.existingClients.toLocaleString('en-US')} already on
        file (merged: their name kept, an empty phone or notes filled in, new addresses added).
      </Text>
      <Text size="sm" fw={600}>
        Columns
      </Text>
      <Group gap={6}>
        {preview.columns.map((c, i) => (
          <Badge
            key={`${c.header}-${i}`}
            tt="none"
            variant={c.field ? 'light' : 'outline'}
            color={c.field ? 'brand' : 'gray'}
          >
            {c.header || `Column ${i + 1}`} → {c.field ? IMPORT_FIELD_LABELS[c.field] : 'not imported'}
          </Badge>
        ))}
      </Group>
      {preview.sample.length > 0 ? (
        <ScrollTable label="The first clients in the file" minWidth={640}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Phone</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>On file</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.sample.map((c) => (
                <Table.Tr key={`${c.email}|${c.phone}|${c.name}`}>
                  <Table.Td>{c.name}</Table.Td>
                  <Table.Td>{c.email || 'No e-mail'}</Table.Td>
                  <Table.Td>{c.phone || '—'}</Table.Td>
                  <Table.Td>{c.address || '—'}</Table.Td>
                  <Table.Td>{c.existing ? 'Yes: merged' : 'New'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      ) : null}
      <Refused rows={preview.refused} />
    </Stack>
  );
}

/** Clients from a CSV file (Jobber's or Housecall Pro's export, or the template): preview, then import. */
export function ImportCard() {
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<ClientImportResult | null>(null);
  const preview = usePreviewImport();
  const importing = useImportClients();

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setResult(null);
    setProblem(null);
    preview.reset();
    if (!chosen) return;
    if (chosen.size > CLIENT_IMPORT_MAX_BYTES) {
      setProblem(
        `This file is ${(chosen.size / 1_048_576).toFixed(1)} MB; an import takes at most ${CLIENT_IMPORT_MAX_BYTES / 1_048_576} MB (about 20,000 clients). Split it and import each part.`,
      );
      return;
    }
    preview.mutate(chosen, { onError: (error) => setProblem(error.message) });
  };

  const runImport = () => {
    if (!file) return;
    importing.mutate(file, {
      onSuccess: (done) => {
        setResult(done);
        preview.reset();
        setFile(null);
        toast.success(`Imported ${plural(done.created + done.merged, 'client')}`);
      },
      onError: (error) => setProblem(error.message),
    });
  };

  const ready = preview.data && preview.data.clients > 0;
  return (
    <SectionCard
      title="Import clients"
      action={
        <Button variant="subtle" size="xs" leftSection={<IconDownload size={14} />} onClick={downloadTemplate}>
          Download the template
        </Button>
      }
    >
      <Stack gap="sm">
        <Text size="sm">
          A CSV file of clients: Jobber&apos;s or Housecall Pro&apos;s client export, or the template (the same columns
          as the clients export). Columns are matched by their header; a client already on file (same e-mail, or same
          phone without one) is merged, not duplicated. You see what will happen before anything changes.
        </Text>
        <FileInput
          label="CSV file"
          placeholder="Choose a .csv file"
          accept=".csv,text/csv"
          value={file}
          onChange={choose}
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the chosen file' }}
          leftSection={<IconFileImport size={16} />}
          maw={420}
        />
        {preview.isPending ? (
          <Text size="sm" c="dimmed">
            Reading the file…
          </Text>
        ) : null}
        {problem ? (
          <Alert color="red" title="This file cannot be imported">
            {problem} Nothing was changed.
          </Alert>
        ) : null}
        {preview.data ? <Preview preview={preview.data} /> : null}
        {preview.data ? (
          <Group>
            <Button onClick={runImport} loading={importing.isPending} disabled={!ready}>
              {ready ? `Import ${plural(preview.data.clients, 'client')}` : 'No client to import'}
            </Button>
            <Button variant="default" onClick={() => choose(null)} disabled={importing.isPending}>
              Cancel
            </Button>
          </Group>
        ) : null}
        {result ? (
          <Alert color="green" title="Import finished">
            {plural(result.created, 'new client')}, {plural(result.merged, 'client')} merged,{' '}
            {plural(result.addressesAdded, 'address', 'addresses')} added
            {result.refused.length ? `; ${plural(result.refused.length, 'row')} refused (below)` : ''}.
          </Alert>
        ) : null}
        {result ? <Refused rows={result.refused} /> : null}
      </Stack>
    </SectionCard>
  );
}
