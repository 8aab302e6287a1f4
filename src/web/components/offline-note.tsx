import { Alert } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { formatClock, formatShortDay, todayIn, wallTimeIn } from '#shared/dates';
import { useShownFromCopy } from '../lib/offline-copy';
import { siteConfig } from '../lib/site-config';

/** "7:42 AM" (today) or "Mon, Nov 23 at 7:42 AM", in the business's time zone whatever the phone's. */
export function keptAt(savedAt: number, timeZone = siteConfig().timeZone): string {
  const { date, time } = wallTimeIn(timeZone, new Date(savedAt));
  return date === todayIn(timeZone) ? formatClock(time) : `${formatShortDay(date)} at ${formatClock(time)}`;
}

/** Says the page shows what the phone kept, and since when, while any of `copies` came from it. */
export function OfflineNote({ copies, mb = 'md' }: { copies: string[]; mb?: string | number }) {
  const savedAt = useShownFromCopy(copies);
  if (savedAt === undefined) return null;
  return (
    <Alert color="orange" variant="light" role="status" icon={<IconCloudOff size={18} aria-hidden />} mb={mb} py="xs">
      Offline — showing what you had at {keptAt(savedAt)}
    </Alert>
  );
}
