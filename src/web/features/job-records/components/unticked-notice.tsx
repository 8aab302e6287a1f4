import { Alert, List, Skeleton } from '@mantine/core';
import { untickedItems, untickedMessage } from '#shared/schemas/job-records';
import { useOfficeRecord } from '../api/record';

/** Before the office completes a job: the crew's checklist items not ticked, as the crew's own dialog says. */
export function UntickedNotice({ jobId }: { jobId: string }) {
  const record = useOfficeRecord(jobId);
  if (record.isPending) return <Skeleton h={24} />;
  if (record.isError) return null;
  const unticked = untickedItems(record.data.checklist);
  if (!unticked.length) return null;
  return (
    <Alert color="yellow" title={untickedMessage(unticked.length, 'office')}>
      <List size="sm">
        {unticked.slice(0, 8).map((item) => (
          <List.Item key={item._id}>{item.text}</List.Item>
        ))}
      </List>
      {unticked.length > 8 ? `and ${unticked.length - 8} more` : null}
    </Alert>
  );
}
