import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { EstimateWindows, WindowView } from '#shared/schemas/booking';
import { WindowPicker, windowWords } from '../../../components/window-picker';
import { publicApi } from '../../../lib/api-client';

/**
 * Get a Quote's "Book an estimate visit" (issue 31, decision 046): the windows one of the estimate
 * crew is free for, when the owner books online; nothing at all when they do not. Loaded after the
 * page is in use, so the form's first paint and scripts do not wait for it.
 */
export default function EstimatePicker({
  picked,
  onPick,
  fresh,
  problem,
  disabled,
}: {
  picked: WindowView | null;
  onPick: (window: WindowView | null) => void;
  /** The windows a 409 answered with (someone took the picked one first). */
  fresh: WindowView[] | null;
  problem: string | null;
  disabled: boolean;
}) {
  const offer = useQuery({
    queryKey: ['booking', 'windows'],
    queryFn: () => publicApi<EstimateWindows>('GET', '/booking/windows'),
    retry: false,
    staleTime: 60_000,
  });
  if (!offer.data?.open) return null;
  const windows = fresh ?? offer.data.windows;
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      mt="md"
      component="section"
      aria-labelledby="estimate-visit"
      role="group"
      aria-label="Book an estimate visit"
    >
      <Title order={2} size="h4" id="estimate-visit">
        Book an estimate visit (optional)
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        Pick a time for us to come and see the job (about {offer.data.minutes} minutes), or send your request without
        one and we will call you.
      </Text>
      <Stack gap="xs">
        {problem ? (
          <Alert
            color="red"
            role="alert"
            title={
              <Text span inherit c="var(--mantine-color-text)">
                Pick again
              </Text>
            }
          >
            {problem}
          </Alert>
        ) : null}
        {windows.length === 0 ? (
          <Text size="sm">No times are free online in the coming weeks: send your request and we will call you.</Text>
        ) : (
          <WindowPicker windows={windows} picked={picked} onPick={onPick} disabled={disabled} />
        )}
        {picked ? (
          <Text size="sm" fw={600} role="status">
            {offer.data.needsApproval
              ? `We will hold ${windowWords(picked)} for you and confirm it by e-mail.`
              : `We will come ${windowWords(picked)}.`}{' '}
            <Button size="compact-sm" variant="subtle" onClick={() => onPick(null)} disabled={disabled}>
              No visit, thanks
            </Button>
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
