import type { JobView } from '#shared/schemas/jobs';
import { isOpenJob } from '#shared/statuses';
import { ServiceAddressSelect } from '../../../components/service-address-select';
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
    <ServiceAddressSelect
      mt="sm"
      description="The client's places: the crew and the invoice follow the one chosen"
      places={places.data}
      value={job.serviceAddressId}
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
