import { SimpleGrid } from '@mantine/core';
import { SectionCard } from '../../../components/section-card';
import { NumberSetting } from './number-setting';

/** Settings → Backups: how many daily backups of the embedded database are kept. */
export function BackupsSection() {
  return (
    <SectionCard title="Backups">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberSetting
          name="backupsToKeep"
          label="Daily backups to keep"
          description="The embedded database is backed up every day into DATA_DIR/backups"
          min={1}
          max={365}
        />
      </SimpleGrid>
    </SectionCard>
  );
}
