import { Alert, Button, Code, Group, List, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { formatDateTime } from '../../../components/date-text';
import { SectionCard } from '../../../components/section-card';
import { downloadFile } from '../../../lib/download';
import { useSiteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useBackups } from '../api/data';
import { BACKUP_AT_NIGHT } from '#shared/backup-schedule';
import { formatShortClock } from '#shared/dates';

/** A command shown whole at 375 px: wrapped, not a region scrolled sideways (which a keyboard cannot reach). */
const wrapped = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** Backups: the automatic ones kept, a backup made and downloaded now, and how to restore. */
export function BackupsCard() {
  const backups = useBackups();
  const { timeZone } = useSiteConfig();
  const [downloading, setDownloading] = useState(false);
  const b = backups.data;

  const downloadNow = async () => {
    setDownloading(true);
    try {
      await downloadFile('/backups/download', 'backup.tar.gz');
      toast.success('Backup downloaded: keep it somewhere other than this computer');
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <SectionCard title="Backups">
      {backups.isError ? (
        <Alert color="red" title="Backups could not be loaded">
          {backups.error.message}
        </Alert>
      ) : !b ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : b.database === 'postgres' ? (
        <Stack gap="xs">
          <Text size="sm">
            This install keeps its data in PostgreSQL: back it up with PostgreSQL&apos;s own tools, on the database
            server, for example every night:
          </Text>
          <Code block style={wrapped}>
            pg_dump --format=custom --file=handyman.dump &quot;$DATABASE_URL&quot;
          </Code>
          <Text size="sm">and restore with the server stopped:</Text>
          <Code block style={wrapped}>
            pg_restore --clean --if-exists --no-owner --dbname=&quot;$DATABASE_URL&quot; handyman.dump
          </Code>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm">
            {b.everyHours > 0
              ? `The server backs up the database every ${b.everyHours === 24 ? 'day' : `${b.everyHours} hours`} into DATA_DIR/backups${b.everyHours >= 24 ? `, around ${formatShortClock(BACKUP_AT_NIGHT)} when it runs at night,` : ''} and keeps the last ${b.keep} (Settings → Backups).`
              : 'Automatic backups are off (BACKUP_EVERY_HOURS=0): download one here, or run npm run backup.'}{' '}
            A backup holds everything: clients, photos, quotes, jobs, invoices and mail waiting to be sent.
          </Text>
          <Group>
            <Button leftSection={<IconDownload size={16} />} loading={downloading} onClick={() => void downloadNow()}>
              Download a backup now
            </Button>
          </Group>
          {b.backups.length > 0 ? (
            <>
              <Text size="sm" fw={600}>
                Kept on the server ({b.backups.length})
              </Text>
              <List size="sm" spacing={2}>
                {b.backups.slice(0, 5).map((file) => (
                  <List.Item key={file.name}>
                    {formatDateTime(file.createdAt, timeZone)} · {megabytes(file.size)} · <Code>{file.name}</Code>
                  </List.Item>
                ))}
              </List>
            </>
          ) : b.everyHours > 0 ? (
            <Text size="sm" c="dimmed">
              No automatic backup yet: the first is taken a minute after the server starts.
            </Text>
          ) : null}
          <Text size="sm" c="dimmed">
            To restore: stop the server, run <Code>npm run restore -- FILE</Code>, start it again. The data that was
            there is kept aside.
          </Text>
        </Stack>
      )}
    </SectionCard>
  );
}
