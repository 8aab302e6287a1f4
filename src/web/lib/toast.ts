import { notifications, type NotificationData } from '@mantine/notifications';
import { isNarrowScreen } from './narrow-screen';

const base: Partial<NotificationData> = {
  withBorder: true,
  closeButtonProps: { 'aria-label': 'Close the notification' },
};

/** A phone shows one toast at a time (toast-container.tsx): the newest replaces the one on screen. */
function show(data: NotificationData) {
  if (isNarrowScreen()) notifications.clean();
  return notifications.show({ ...base, ...data });
}

/** Toasts (placed and timed by the toast container) in the three tones the app uses. */
export const toast = {
  success: (message: string) => show({ message, color: 'green' }),
  error: (message: string) => show({ message, color: 'red' }),
  warning: (message: string) => show({ message, color: 'yellow' }),
  /** Closes every toast shown and drops the queued ones. */
  clear: () => notifications.clean(),
};
