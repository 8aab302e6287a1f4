import { notifications, type NotificationData } from '@mantine/notifications';

const base: Partial<NotificationData> = {
  withBorder: true,
  closeButtonProps: { 'aria-label': 'Close the notification' },
};

/** Toasts (top-right, 5 s, set in the providers) in the three tones the app uses. */
export const toast = {
  success: (message: string) => notifications.show({ ...base, message, color: 'green' }),
  error: (message: string) => notifications.show({ ...base, message, color: 'red' }),
  warning: (message: string) => notifications.show({ ...base, message, color: 'yellow' }),
  /** Closes every toast shown and drops the queued ones. */
  clear: () => notifications.clean(),
};
