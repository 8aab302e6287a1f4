import { ReasonDialog } from '../../../components/reason-dialog';
import type { VisitView } from '#shared/schemas/visits';
import { toast } from '../../../lib/toast';
import { useVisitChanges } from '../api/visits';

/** Cancel a visit with a reason (the client receives it), from the job page or the calendar. */
export function CancelVisitDialog({ visit, onClose }: { visit: VisitView | null; onClose: () => void }) {
  const { cancel } = useVisitChanges();
  return (
    <ReasonDialog
      opened={visit !== null}
      onClose={onClose}
      title="Cancel this visit?"
      label="Reason"
      description="The client receives it with the cancellation."
      confirmLabel="Cancel visit"
      keepLabel="Keep visit"
      loading={cancel.isPending}
      onConfirm={(reason) =>
        cancel.mutate(
          { visitId: visit!._id, reason },
          {
            onSuccess: () => {
              toast.success('Visit cancelled: the client is told');
              onClose();
            },
            onError: (e) => toast.error(e.message),
          },
        )
      }
    />
  );
}
