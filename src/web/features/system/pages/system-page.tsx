import { Alert, Badge, Button, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleMinus, IconRefresh } from '@tabler/icons-react';
import type { SystemLine } from '#shared/schemas/system';
import { formatLongDate } from '#shared/dates';
import { formatDateTime } from '../../../components/date-text';
import { PageHeader } from '../../../components/page-header';
import { useSiteConfig } from '../../../lib/site-config';
import { useSystem } from '../api/system';

const look = {
  ok: { color: 'teal', icon: IconCircleCheck, word: 'OK' },
  failing: { color: 'red', icon: IconAlertTriangle, word: 'Needs you' },
  off: { color: 'gray', icon: IconCircleMinus, word: 'Off' },
} as const;

function Line({ line }: { line: SystemLine }) {
  const { color, icon: Icon, word } = look[line.state];
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="li"
      aria-label={`${line.label}: ${word}`}
      style={line.state === 'failing' ? { borderColor: 'var(--mantine-color-red-6)', borderWidth: 2 } : undefined}
    >
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <ThemeIcon color={color} variant="light" radius="xl" size="lg" aria-hidden>
          <Icon size={20} />
        </ThemeIcon>
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="xs" justify="space-between" wrap="wrap">
            <Text fw={700}>{line.label}</Text>
            {/* Dark words on the light badges: the light variant's own text is too faint to read. */}
            <Badge
              color={line.state === 'failing' ? 'red.9' : color}
              variant={line.state === 'failing' ? 'filled' : 'light'}
              {...(line.state === 'failing' ? {} : { c: 'dark.6' })}
            >
              {word}
            </Badge>
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {line.summary}
          </Text>
          {line.action ? (
            <Text size="sm" c={line.state === 'failing' ? 'red.8' : 'dimmed'} fw={line.state === 'failing' ? 600 : 400}>
              {line.state === 'failing' ? 'What to do: ' : ''}
              {line.action}
            </Text>
          ) : null}
        </Stack>
      </Group>
    </Paper>
  );
}

/** The machinery in plain sight (decision 039): mail, reminders, backups, jobs, database, disk, this server. */
export default function SystemPage() {
  const system = useSystem();
  const { timeZone } = useSiteConfig();
  const v = system.data;
  const red = v?.lines.filter((l) => l.state === 'failing') ?? [];

  return (
    <>
      <PageHeader
        title="System"
        actions={
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={system.isFetching}
            onClick={() => void system.refetch()}
          >
            Check again
          </Button>
        }
      />
      <Stack gap="md" maw={900}>
        {system.isError ? (
          <Alert color="red" title="The System page could not be loaded">
            {system.error.message}
          </Alert>
        ) : !v ? (
          <Text size="sm" c="dimmed">
            Loading…
          </Text>
        ) : (
          <>
            <Alert
              color={red.length ? 'red' : 'green'}
              title={
                // In the text's own colour: the light alert's coloured title is too faint on its background.
                <Text span inherit c="var(--mantine-color-text)">
                  {red.length === 0
                    ? 'Everything is working'
                    : red.length === 1
                      ? 'One thing needs you'
                      : `${red.length} things need you`}
                </Text>
              }
              icon={red.length ? <IconAlertTriangle /> : <IconCircleCheck />}
            >
              <Text size="sm">
                Checked {formatDateTime(v.checkedAt, timeZone)}. While something is red, {v.alertsTo} gets one e-mail a
                day about it.
                {v.lastAlert
                  ? ` The last one was sent on ${formatLongDate(v.lastAlert.day)}.`
                  : ' None has been sent yet.'}
              </Text>
            </Alert>
            <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="System checks">
              {[...red, ...v.lines.filter((l) => l.state !== 'failing')].map((line) => (
                <Line key={line.key} line={line} />
              ))}
            </Stack>
          </>
        )}
      </Stack>
    </>
  );
}
