import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { formatClock, formatShortClock, formatShortDay } from '#shared/dates';
import type { WindowView } from '#shared/schemas/booking';

/** Days of windows shown at first; the rest on asking. */
const FIRST_DAYS = 5;

/** "Tue, Dec 1, 8:00 AM – 10:00 AM": a window as the client reads it. */
export const windowWords = (w: WindowView) =>
  `${formatShortDay(w.date)}, ${formatClock(w.start)} – ${formatClock(w.end)}`;

export const sameWindow = (a: WindowView | null, b: WindowView) => a?.date === b.date && a.start === b.start;

/**
 * Free arrival windows by day, each a button that stays pressed when picked (decision 046): a visitor
 * booking an estimate visit, a client moving theirs. The first days show; the rest on asking.
 */
export function WindowPicker({
  windows,
  picked,
  onPick,
  disabled = false,
}: {
  windows: WindowView[];
  picked: WindowView | null;
  onPick: (window: WindowView) => void;
  disabled?: boolean;
}) {
  const [allDays, setAllDays] = useState(false);
  const days = [...new Set(windows.map((w) => w.date))];
  const shown = allDays ? days : days.slice(0, FIRST_DAYS);
  return (
    <>
      {shown.map((day) => (
        <div key={day}>
          <Text size="sm" c="dimmed">
            {formatShortDay(day)}
          </Text>
          <Group gap={6} mt={2}>
            {windows
              .filter((w) => w.date === day)
              .map((w) => {
                const on = sameWindow(picked, w);
                return (
                  <Button
                    key={w.start}
                    size="xs"
                    variant={on ? 'filled' : 'default'}
                    aria-pressed={on}
                    aria-label={windowWords(w)}
                    disabled={disabled}
                    onClick={() => onPick(w)}
                  >
                    {formatShortClock(w.start)} – {formatShortClock(w.end)}
                  </Button>
                );
              })}
          </Group>
        </div>
      ))}
      {days.length > shown.length ? (
        <div>
          <Button size="xs" variant="subtle" onClick={() => setAllDays(true)}>
            Show {days.length - shown.length} more days
          </Button>
        </div>
      ) : null}
    </>
  );
}
