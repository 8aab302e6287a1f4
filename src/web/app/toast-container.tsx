import { Notifications } from '@mantine/notifications';
import { TOAST_AUTO_CLOSE_MS } from '../../shared/constants';

/** Mantine's toast container: top-right, closing after 5 s. Loaded with the first toast (providers.tsx). */
export default function ToastContainer() {
  return <Notifications position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} />;
}
