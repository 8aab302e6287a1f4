import { Button, Group } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { downloadFile } from '../lib/download';
import { toast } from '../lib/toast';

/** Buttons that download files the API serves to staff (CSV for a spreadsheet). */
export function DownloadButtons({ files }: { files: { label: string; path: string; filename: string }[] }) {
  return (
    <Group gap="xs">
      {files.map((file) => (
        <Button
          key={file.path}
          variant="light"
          leftSection={<IconDownload size={16} />}
          onClick={() => downloadFile(file.path, file.filename).catch((e: Error) => toast.error(e.message))}
        >
          {file.label}
        </Button>
      ))}
    </Group>
  );
}

/** The invoices and payments, as CSV. */
export const MONEY_FILES = [
  { label: 'Invoices (CSV)', path: '/invoices.csv', filename: 'invoices.csv' },
  { label: 'Payments (CSV)', path: '/payments.csv', filename: 'payments.csv' },
];
