import { Select } from '@mantine/core';
import type { JobView } from '#shared/schemas/jobs';
import { isOpenJob } from '#shared/statuses';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useJobClientPlaces, useMoveJobAddress } from '../api/jobs';

/** An open job of a client with several service addresses: which one the work is at (decision 037). */
export function JobAddressChoice({ job }: { job: JobView }) {
  const open = isOpenJob(job.status);
  const places = useJobClientPlaces(job.clientId, open);
  const move = useMoveJobAddress(job._id);
  if (!open || !places.data || places.data.length < 2) return null;
  return (
    <Select
      mt="sm"
      label="Service address"
      description="The client's places: the crew and the invoice follow the one chosen"
      data={places.data.map((a, i) => ({
        value: a._id,
        label: `${a.label || `Address ${i + 1}`}: ${a.street}, ${a.city}`,
      }))}
      value={job.serviceAddressId}
      allowDeselect={false}
      disabled={move.isPending}
      onChange={(id) => {
        if (!id || id === job.serviceAddressId) return;
        move.mutate(id, {
          onSuccess: (moved) => toast.success(`The job is now at ${moved.address.street}`),
          onError: (error) =>
            toast.error(error instanceof ApiError ? error.message : 'The address could not be changed'),
        });
      }}
    />
  );
}
