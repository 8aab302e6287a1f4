import {
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  MultiSelect,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import { visitInput, type VisitChangeInput, type VisitView } from '#shared/schemas/visits';
import { TimeRange } from '../../../components/time-range';
import { ApiError, hasErrorCode } from '../../../lib/api-client';
import { useEmployees } from '../api/visits';
import { TellClientDialog } from './tell-client-dialog';

export interface VisitFormValues {
  date: string;
  start: string;
  end: string;
  workerIds: string[];
  notes: string;
  clientNote: string;
}

/** The crew's notes never reach the client; the note to the client goes in their e-mail and .ics. */
const NOTE_FIELDS = [
  {
    key: 'notes',
    label: 'Notes for the crew',
    description: 'Only the crew sees these (gate codes, what to collect)',
    minRows: 2,
  },
  {
    key: 'clientNote',
    label: 'Note to the client',
    description: "Optional: goes in the client's e-mail and calendar entry",
    minRows: 1,
  },
] as const;

/** A new visit's values: empty notes, the crew and times given. */
export const blankVisit = (values: Pick<VisitFormValues, 'date' | 'start' | 'end'> & { workerIds?: string[] }) => ({
  workerIds: [],
  notes: '',
  clientNote: '',
  ...values,
});

/** A booked visit as the dialog edits it. */
export const valuesOf = (v: VisitView): VisitFormValues => ({
  date: v.date,
  start: v.start,
  end: v.end,
  workerIds: v.workers.map((w) => w._id),
  notes: v.notes,
  clientNote: v.clientNote,
});

/** A visit of repeating visits still to come: the one "This and following" may start from. */
export const repeatsAhead = (v: VisitView | null | undefined): v is VisitView =>
  !!v?.planId && !!v.jobId && !v.cancelled && Date.parse(v.startsAt) > Date.now();

interface VisitDialogProps {
  opened: boolean;
  title: string;
  submitLabel: string;
  initial: VisitFormValues;
  /** From the calendar: which job the visit is for. */
  jobs?: { value: string; label: string }[] | undefined;
  /** A booked visit's client: a new time asks "Tell the client?" before it is saved. */
  client?: string | undefined;
  onSubmit: (body: VisitChangeInput, jobId: string | null) => Promise<unknown>;
  onClose: () => void;
  /** A booked visit's dialog offers to cancel it (the caller asks for the reason). */
  onCancelVisit?: (() => void) | undefined;
  /** A visit of repeating visits still to come: "This and following" opens the series' change (the caller's). */
  onChangeSeries?: (() => void) | undefined;
}

/**
 * Book or change a visit: date, times, crew and notes, checked by the shared schema. A 409 that names
 * a busy or unavailable worker is shown in the dialog, with "Book anyway".
 */
export function VisitDialog({ opened, title, onClose, ...form }: VisitDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened={opened} onClose={busy ? () => {} : onClose} title={title} centered radius="lg">
      {/* Mounted on each opening, so it starts from the values given. */}
      <VisitForm {...form} onClose={onClose} busy={busy} setBusy={setBusy} />
    </Modal>
  );
}

function VisitForm({
  client,
  onCancelVisit,
  onChangeSeries,
  submitLabel,
  initial,
  jobs,
  onSubmit,
  onClose,
  busy,
  setBusy,
}: Omit<VisitDialogProps, 'opened' | 'title'> & { busy: boolean; setBusy: (busy: boolean) => void }) {
  const employees = useEmployees(true);
  const [values, setValues] = useState(initial);
  const [jobId, setJobId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [warning, setWarning] = useState<string>();
  // "Tell the client?": asked once the form is valid (answered: whether the client is told).
  const [asking, setAsking] = useState<{ confirm: boolean } | null>(null);
  const [notifyClient, setNotifyClient] = useState<boolean>();
  const moved = values.date !== initial.date || values.start !== initial.start || values.end !== initial.end;

  const submit = async (confirm: boolean, notify = notifyClient) => {
    const parsed = visitInput.safeParse({ ...values, confirm });
    const found: Record<string, string> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
    if (jobs && !jobId) found.job = 'Choose the job';
    setErrors(found);
    if (!parsed.success || Object.keys(found).length) return;
    if (client && moved && notify === undefined) {
      setAsking({ confirm });
      return;
    }
    setBusy(true);
    try {
      await onSubmit(client && moved ? { ...parsed.data, notifyClient: notify } : parsed.data, jobId);
      onClose();
    } catch (error) {
      if (hasErrorCode(error, 'VISIT_CONFLICT')) setWarning(error.message);
      else setErrors({ form: error instanceof ApiError ? error.message : 'The visit could not be saved' });
    } finally {
      setBusy(false);
    }
  };
  const set = (key: keyof VisitFormValues) => (value: string | string[]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (key === 'date' || key === 'start' || key === 'end') setNotifyClient(undefined);
    setErrors(({ [key]: _gone, ...rest }) => rest);
    setWarning(undefined);
  };

  return (
    <Stack>
      <TellClientDialog
        move={asking && client ? { client, date: values.date, start: values.start, end: values.end } : null}
        onAnswer={(notify) => {
          setNotifyClient(notify);
          setAsking(null);
          void submit(asking!.confirm, notify);
        }}
        onClose={() => setAsking(null)}
      />
      {jobs ? (
        <Select
          label="Job"
          withAsterisk
          searchable
          data={jobs}
          value={jobId}
          onChange={(v) => {
            setJobId(v);
            setErrors(({ job: _gone, ...rest }) => rest);
          }}
          error={errors.job}
          nothingFoundMessage="No open jobs"
        />
      ) : null}
      <TextInput
        type="date"
        label="Date"
        withAsterisk
        value={values.date}
        onChange={(e) => set('date')(e.currentTarget.value)}
        error={errors.date}
      />
      <TimeRange
        start={values.start}
        end={values.end}
        onChange={(next) => (next.start !== values.start ? set('start')(next.start) : set('end')(next.end))}
        errors={errors}
      />
      <MultiSelect
        label="Crew"
        placeholder={values.workerIds.length ? undefined : 'Choose who goes'}
        searchable
        data={(employees.data ?? []).map((u) => ({ value: u._id, label: u.fullName || u.username }))}
        value={values.workerIds}
        onChange={set('workerIds')}
        error={errors.workerIds}
      />
      {NOTE_FIELDS.map(({ key, label, description, minRows }) => (
        <Textarea
          key={key}
          label={label}
          description={description}
          autosize
          minRows={minRows}
          value={values[key]}
          onChange={(e) => set(key)(e.currentTarget.value)}
          error={errors[key]}
        />
      ))}
      {warning ? (
        <Alert color="orange.9" title="Check the crew" role="alert">
          {warning}
        </Alert>
      ) : null}
      {errors.form ? (
        <Alert color="red" role="alert">
          {errors.form}
        </Alert>
      ) : null}
      {onChangeSeries ? (
        <Text size="sm" c="dimmed">
          This visit repeats: the fields above change this one alone.{' '}
          <Anchor component="button" type="button" size="sm" onClick={onChangeSeries} disabled={busy}>
            Change this and the following visits
          </Anchor>
        </Text>
      ) : null}
      <Group justify="flex-end">
        {onCancelVisit ? (
          <Button variant="outline" color="red.9" mr="auto" onClick={onCancelVisit} disabled={busy}>
            Cancel visit
          </Button>
        ) : null}
        <Button variant="default" onClick={onClose} disabled={busy}>
          Close
        </Button>
        {warning ? (
          <Button color="orange.9" loading={busy} onClick={() => void submit(true)}>
            Book anyway
          </Button>
        ) : (
          <Button loading={busy} onClick={() => void submit(false)}>
            {submitLabel}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
