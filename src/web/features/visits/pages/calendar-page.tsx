import FullCalendar from '@fullcalendar/react';
import type { DatesSetArg, EventClickArg, EventDropArg, EventInput } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin, { type DateClickArg, type EventResizeDoneArg } from '@fullcalendar/interaction';
import listPlugin from '@fullcalendar/list';
import timeGridPlugin from '@fullcalendar/timegrid';
import { Box, Button, CopyButton, Group, Loader, Paper, Select, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { zonedTimeToUtc } from '../../../../shared/dates';
import type { VisitInput, VisitView } from '../../../../shared/schemas/visits';
import { PageHeader } from '../../../components/page-header';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { hasErrorCode } from '../../../lib/api-client';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useEmployees, useFeedUrl, useOpenJobs, useVisitChanges, useVisitsInRange } from '../api/visits';
import { CancelVisitDialog } from '../components/cancel-visit-dialog';
import { blankVisit, valuesOf, VisitDialog, type VisitFormValues } from '../components/visit-dialog';
import { workerColor } from '../worker-colors';
import classes from './calendar-page.module.css';

/** The calendar shows the business's wall-clock times as they are ("UTC" to FullCalendar, no shifting). */
const wall = (iso: string) => ({ date: iso.slice(0, 10), time: iso.slice(11, 16) });
const asWall = (date: string, time: string) => `${date}T${time}:00`;

function FeedAddress({ scope }: { scope: 'company' | 'mine' }) {
  const { feed, regenerate } = useFeedUrl(scope);
  const [asking, setAsking] = useState(false);
  return (
    <Paper withBorder radius="lg" p="md" mt="md">
      <Stack gap="xs">
        <Text fw={700}>{scope === 'company' ? 'Subscribe to the company calendar' : 'Subscribe to my visits'}</Text>
        <Text size="sm" c="dimmed">
          Add this address to Google Calendar, Apple Calendar or Outlook (“subscribe by URL”). Keep it private: anyone
          with it sees the visits.
        </Text>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput
            label="Calendar address"
            readOnly
            value={feed.data?.url ?? ''}
            className={classes.feed}
            onFocus={(e) => e.currentTarget.select()}
          />
          <CopyButton value={feed.data?.url ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy} disabled={!feed.data}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={() => setAsking(true)}>
            New address
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={asking}
        onClose={() => setAsking(false)}
        title="Make a new address?"
        confirmLabel="Make a new address"
        loading={regenerate.isPending}
        onConfirm={() =>
          regenerate.mutate(undefined, {
            onSuccess: () => {
              setAsking(false);
              toast.success('New calendar address made: the old one no longer works');
            },
          })
        }
      >
        <Text size="sm">Calendars subscribed to the old address stop receiving visits.</Text>
      </ConfirmDialog>
    </Paper>
  );
}

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
  const [editing, setEditing] = useState<VisitView | null>(null);
  const [cancelling, setCancelling] = useState<VisitView | null>(null);
  const [creating, setCreating] = useState<VisitFormValues | null>(null);
  const openJobs = useOpenJobs(office && creating !== null);
  const [pendingMove, setPendingMove] = useState<{
    visit: VisitView;
    body: VisitInput;
    revert: () => void;
    message: string;
  } | null>(null);

  const events: EventInput[] = useMemo(
    () =>
      (visits.data?.visits ?? []).map((v) => ({
        id: v._id,
        title: `${v.client.name}${v.workers.length ? ` · ${v.workers.map((w) => w.fullName).join(', ')}` : ''}`,
        start: asWall(v.date, v.start),
        end: asWall(v.date, v.end === '24:00' ? '23:59' : v.end),
        backgroundColor: workerColor(v.workers[0]?._id),
        borderColor: workerColor(v.workers[0]?._id),
        textColor: '#ffffff',
        extendedProps: { visit: v },
      })),
    [visits.data],
  );

  const onDates = (arg: DatesSetArg) => {
    const from = wall(arg.start.toISOString()).date;
    const to = wall(arg.end.toISOString()).date;
    setRange({
      from: zonedTimeToUtc(from, '00:00', timeZone).toISOString(),
      to: zonedTimeToUtc(to, '00:00', timeZone).toISOString(),
    });
  };

  /** A drag or a resize: the new wall-clock times, saved; a warning asks before booking anyway. */
  const onMoved = (arg: EventDropArg | EventResizeDoneArg) => {
    const visit = arg.event.extendedProps.visit as VisitView;
    const start = wall(arg.event.start!.toISOString());
    const end = wall((arg.event.end ?? arg.event.start!).toISOString());
    const body: VisitInput = {
      ...valuesOf(visit),
      date: start.date,
      start: start.time,
      end: end.date === start.date ? end.time : '23:59',
    };
    change.mutate(
      { visitId: visit._id, body },
      {
        onSuccess: () => toast.success('Visit moved: the client is e-mailed the new time'),
        onError: (error) => {
          if (hasErrorCode(error, 'VISIT_CONFLICT'))
            setPendingMove({ visit, body, revert: arg.revert, message: error.message });
          else {
            arg.revert();
            toast.error(error.message);
          }
        },
      },
    );
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
        onSubmit={async (body) => {
          await change.mutateAsync({ visitId: editing!._id, body });
          toast.success('Visit saved');
        }}
        onClose={() => setEditing(null)}
        onCancelVisit={() => {
          setCancelling(editing);
          setEditing(null);
        }}
      />
      <CancelVisitDialog visit={cancelling} onClose={() => setCancelling(null)} />
      <VisitDialog
        opened={creating !== null}
        title="Book a visit"
        submitLabel="Book visit"
        jobs={jobChoices}
        initial={creating ?? blankVisit({ date: '', start: '', end: '' })}
        onSubmit={async (body, jobId) => {
          await book.mutateAsync({ jobId: jobId!, body });
          toast.success('Visit booked: the client is e-mailed');
        }}
        onClose={() => setCreating(null)}
      />
      <ConfirmDialog
        opened={pendingMove !== null}
        onClose={() => {
          pendingMove?.revert();
          setPendingMove(null);
        }}
        title="Move it anyway?"
        confirmLabel="Move anyway"
        loading={change.isPending}
        onConfirm={() =>
          change.mutate(
            { visitId: pendingMove!.visit._id, body: { ...pendingMove!.body, confirm: true } },
            {
              onSuccess: () => {
                toast.success('Visit moved: the client is e-mailed the new time');
                setPendingMove(null);
              },
              onError: (error) => {
                pendingMove?.revert();
                setPendingMove(null);
                toast.error(error.message);
              },
            },
          )
        }
      >
        <Text size="sm">{pendingMove?.message}</Text>
      </ConfirmDialog>
    </>
  );
}

/** The business's shared calendar, embedded from CALENDAR_EMBED_URL (the spec's Calendar page), with a spinner until it loads. */
function SharedCalendar() {
  const url = siteConfig().calendarEmbedUrl;
  const [loaded, setLoaded] = useState(false);
  if (!url)
    return (
      <Paper withBorder radius="lg" p="sm">
        <Text c="dimmed" ta="center" py={80}>
          Embed URL is missing
        </Text>
      </Paper>
    );
  return (
    <Paper withBorder radius="lg" p="sm" className={classes.embed}>
      {!loaded ? (
        <Box className={classes.spinner}>
          <Loader aria-label="Loading the calendar" />
        </Box>
      ) : null}
      <iframe title="Shared calendar" src={url} className={classes.iframe} onLoad={() => setLoaded(true)} />
    </Paper>
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
