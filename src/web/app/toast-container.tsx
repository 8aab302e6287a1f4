import { Notifications } from '@mantine/notifications';
import { TOAST_AUTO_CLOSE_MS } from '../../shared/constants';

/** Mantine's toast container: top-right, closing after 5 s, at most three at once (more wait their turn). Loaded with the first toast (providers.tsx). */
export default function ToastContainer() {
  return <Notifications position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} limit={3} />;
}
