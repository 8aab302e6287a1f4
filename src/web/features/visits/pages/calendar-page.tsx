import FullCalendar from '@fullcalendar/react';
import type { DatesSetArg, EventClickArg } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin, { type DateClickArg } from '@fullcalendar/interaction';
import listPlugin from '@fullcalendar/list';
import timeGridPlugin from '@fullcalendar/timegrid';
import { Group, Paper, Select, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { zonedTimeToUtc } from '#shared/dates';
import type { VisitView } from '#shared/schemas/visits';
import { PageHeader } from '../../../components/page-header';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useEmployees, useOpenJobs, useVisitChanges, useVisitsInRange } from '../api/visits';
import { CancelVisitDialog } from '../components/cancel-visit-dialog';
import { FeedAddress } from '../components/feed-address';
import { SharedCalendar } from '../components/shared-calendar';
import { savedToast, TellClientDialog } from '../components/tell-client-dialog';
import { ChangeSeriesDialog } from '../components/job-plans';
import { blankVisit, repeatsAhead, valuesOf, VisitDialog, type VisitFormValues } from '../components/visit-dialog';
import { useMoveVisit } from '../hooks/use-move-visit';
import { useVisitEvents } from '../hooks/use-visit-events';
import { businessNow, wall } from '../wall-clock';
import classes from './calendar-page.module.css';

/**
 * The visits calendar: day, week, month and list views, loading only the visible range. The office
 * sees everyone's visits (coloured by worker, filtered by worker), books by selecting a time, and
 * drags to move or resize on a desktop; on a phone a tap opens the visit in a dialog. The crew sees
 * their own. The shared calendar stays beside it when CALENDAR_EMBED_URL is set.
 */
export function VisitsCalendar({ scope }: { scope: 'all' | 'mine' }) {
  const office = scope === 'all';
  const narrow = useNarrowScreen();
  const { timeZone } = siteConfig();
  const [range, setRange] = useState<{ from: string; to: string } | null>(null);
  const [workerId, setWorkerId] = useState<string | null>(null);
  const visits = useVisitsInRange(range, scope, workerId ?? undefined);
  const employees = useEmployees(office);
  const { book, change } = useVisitChanges();
  const { onMoved, asking, answer, pendingMove, moveAnyway, putBack } = useMoveVisit(change);
  const [editing, setEditing] = useState<VisitView | null>(null);
  const [cancelling, setCancelling] = useState<VisitView | null>(null);
  const [series, setSeries] = useState<VisitView | null>(null);
  const [creating, setCreating] = useState<VisitFormValues | null>(null);
  const openJobs = useOpenJobs(office && creating !== null);

  const events = useVisitEvents(visits.data?.visits);

  const onDates = (arg: DatesSetArg) => {
    const from = wall(arg.start.toISOString()).date;
    const to = wall(arg.end.toISOString()).date;
    setRange({
      from: zonedTimeToUtc(from, '00:00', timeZone).toISOString(),
      to: zonedTimeToUtc(to, '00:00', timeZone).toISOString(),
    });
  };

  const jobChoices = (openJobs.data?.jobs ?? [])
    .filter((j) => j.status === 'Not Started' || j.status === 'In Progress')
    .map((j) => ({ value: j._id, label: `${j.contactPerson.name} · ${j.address.street}` }));

  return (
    <>
      {office ? (
        <Group mb="sm" gap="sm" align="flex-end">
          <Select
            label="Worker"
            placeholder="All workers"
            clearable
            data={(employees.data ?? []).map((u) => ({ value: u._id, label: u.fullName || u.username }))}
            value={workerId}
            onChange={setWorkerId}
            w={{ base: '100%', xs: 240 }}
          />
          <Text size="sm" c="dimmed" pb={8}>
            {narrow ? 'Tap a day or a visit.' : 'Select a time to book a visit; drag a visit to move it.'}
          </Text>
        </Group>
      ) : null}
      <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'md' }} className={classes.calendar}>
        <FullCalendar
          plugins={[dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin]}
          timeZone="UTC"
          // Its today (opening date, Today button, highlight, now-line) is the business's, not UTC's.
          now={() => businessNow(timeZone)}
          initialView={narrow ? 'listWeek' : 'timeGridWeek'}
          headerToolbar={
            narrow
              ? { left: 'prev,next', center: 'title', right: 'today' }
              : { left: 'prev,next today', center: 'title', right: 'dayGridMonth,timeGridWeek,timeGridDay,listWeek' }
          }
          footerToolbar={narrow ? { center: 'listWeek,timeGridDay,dayGridMonth' } : undefined}
          // Words, not icon fonts: FullCalendar's icons are images without a text alternative.
          buttonIcons={false}
          buttonText={{
            prev: '‹ Previous',
            next: 'Next ›',
            today: 'Today',
            month: 'Month',
            week: 'Week',
            day: 'Day',
            list: 'List',
          }}
          events={events}
          datesSet={onDates}
          height="auto"
          slotMinTime="06:00:00"
          slotMaxTime="21:00:00"
          allDaySlot={false}
          nowIndicator
          selectable={office && !narrow}
          selectMirror
          select={(info) => {
            const start = wall(info.start.toISOString());
            const end = wall(info.end.toISOString());
            setCreating(
              blankVisit({
                date: start.date,
                start: start.time === '00:00' ? '09:00' : start.time,
                end: end.date === start.date ? end.time : start.time === '00:00' ? '11:00' : '23:59',
                workerIds: workerId ? [workerId] : [],
              }),
            );
          }}
          dateClick={(info: DateClickArg) => {
            if (!office || !narrow) return;
            setCreating(blankVisit({ date: wall(info.date.toISOString()).date, start: '09:00', end: '11:00' }));
          }}
          editable={office && !narrow}
          eventDrop={onMoved}
          eventResize={onMoved}
          eventClick={(info: EventClickArg) => {
            info.jsEvent.preventDefault();
            if (office) setEditing(info.event.extendedProps.visit as VisitView);
          }}
          eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
        />
        {visits.isError ? (
          <Text c="red.9" role="alert" mt="sm">
            The visits could not be loaded. Please try again.
          </Text>
        ) : null}
      </Paper>
      <FeedAddress scope={office ? 'company' : 'mine'} />
      <VisitDialog
        opened={editing !== null}
        title="Change the visit"
        submitLabel="Save"
        initial={editing ? valuesOf(editing) : blankVisit({ date: '', start: '', end: '' })}
        client={editing?.client.name}
        onSubmit={async (body) => {
          await change.mutateAsync({ visitId: editing!._id, body });
          toast.success(savedToast(body));
        }}
        onClose={() => setEditing(null)}
        onCancelVisit={() => {
          setCancelling(editing);
          setEditing(null);
        }}
        onChangeSeries={
          repeatsAhead(editing)
            ? () => {
                setSeries(editing);
                setEditing(null);
              }
            : undefined
        }
      />
      <CancelVisitDialog visit={cancelling} onClose={() => setCancelling(null)} />
      <ChangeSeriesDialog visit={series} onClose={() => setSeries(null)} />
      <VisitDialog
        opened={creating !== null}
        title="Book a visit"
        submitLabel="Book visit"
        jobs={jobChoices}
        initial={creating ?? blankVisit({ date: '', start: '', end: '' })}
        onSubmit={async (body, jobId) => {
          await book.mutateAsync({ jobId: jobId!, body });
          toast.success('Visit booked: the client is told');
        }}
        onClose={() => setCreating(null)}
      />
      <TellClientDialog move={asking} onAnswer={answer} onClose={putBack} />
      <ConfirmDialog
        opened={pendingMove !== null}
        onClose={putBack}
        title="Move it anyway?"
        confirmLabel="Move anyway"
        loading={change.isPending}
        onConfirm={moveAnyway}
      >
        <Text size="sm">{pendingMove?.message}</Text>
      </ConfirmDialog>
    </>
  );
}

/** Calendar: our visits, and the shared calendar beside them. */
function CalendarPage({ scope }: { scope: 'all' | 'mine' }) {
  return (
    <>
      <PageHeader title="Calendar" />
      <Tabs defaultValue="visits" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="visits">Visits</Tabs.Tab>
          <Tabs.Tab value="shared">Shared calendar</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="visits">
          <VisitsCalendar scope={scope} />
        </Tabs.Panel>
        <Tabs.Panel value="shared">
          <SharedCalendar />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

export function OfficeCalendarPage() {
  return <CalendarPage scope="all" />;
}

export function CrewCalendarPage() {
  return <CalendarPage scope="mine" />;
}
