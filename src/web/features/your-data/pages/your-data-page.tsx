import { Stack } from '@mantine/core';
import { PageHeader } from '../../../components/page-header';
import { BackupsCard } from '../components/backups-card';
import { ExportsCard } from '../components/exports-card';
import { ImportCard } from '../components/import-card';

/** Own your data: backups, exports and the clients import, in one place. */
export default function YourDataPage() {
  return (
    <>
      <PageHeader title="Your data" />
      <Stack gap="md" maw={1100}>
        <BackupsCard />
        <ExportsCard />
        <ImportCard />
      </Stack>
    </>
  );
}
