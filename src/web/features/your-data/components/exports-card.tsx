import { Button, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { EXPORT_FILES } from '#shared/schemas/exports';
import { SectionCard } from '../../../components/section-card';
import { downloadFile } from '../../../lib/download';
import { toast } from '../../../lib/toast';

/** Where each export is served: invoices and payments by the invoices' own addresses. */
const pathOf = (file: string) => (file === 'invoices.csv' || file === 'payments.csv' ? `/${file}` : `/export/${file}`);

/** Exports: every part of the business as CSV for a spreadsheet, and everything as one JSON file. */
export function ExportsCard() {
  const [busy, setBusy] = useState<string | null>(null);
  const download = async (file: string) => {
    setBusy(file);
    try {
      await downloadFile(pathOf(file), file);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setBusy(null);
    }
  };
  return (
    <SectionCard title="Export">
      <Text size="sm" mb="sm">
        Your data is yours: take it to a spreadsheet, an accountant or another tool. Cells that a spreadsheet would run
        as a formula are written as text.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {EXPORT_FILES.map((f) => (
          <Stack key={f.file} gap={2}>
            <Button
              variant="light"
              justify="flex-start"
              leftSection={<IconDownload size={16} />}
              loading={busy === f.file}
              onClick={() => void download(f.file)}
            >
              {f.label}
            </Button>
            <Text size="xs" c="dimmed" pl="xs">
              {f.description}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </SectionCard>
  );
}
