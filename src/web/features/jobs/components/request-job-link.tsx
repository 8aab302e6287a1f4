import { Alert, Anchor } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { jobNumberOf } from '#shared/schemas/jobs';
import { useJobOfRequest } from '../api/jobs';

/** On a request's page: the job the client's yes became, when there is one. */
export function RequestJobLink({ quoteRequestId }: { quoteRequestId: string }) {
  const job = useJobOfRequest(quoteRequestId);
  if (!job.data) return null;
  return (
    <Alert color="green" icon={<IconTool aria-hidden />} title="The client accepted: this request is a job now" mt="md">
      <Anchor component={Link} to={paths.admin.job(job.data._id)} fw={600}>
        Open job {jobNumberOf(job.data._id)}
      </Anchor>
    </Alert>
  );
}
