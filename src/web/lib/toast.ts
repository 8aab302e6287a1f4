import { notifications } from '@mantine/notifications';

/** Toasts (top-right, 5 s, set in the providers) in the three tones the app uses. */
export const toast = {
  success: (message: string) => notifications.show({ message, color: 'green', withBorder: true }),
  error: (message: string) => notifications.show({ message, color: 'red', withBorder: true }),
  warning: (message: string) => notifications.show({ message, color: 'yellow', withBorder: true }),
};
