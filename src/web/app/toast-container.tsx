import { Notifications } from '@mantine/notifications';
import { TOAST_AUTO_CLOSE_MS } from '#shared/constants';
import { useNarrowScreen } from '../lib/narrow-screen';
import classes from './toast-container.module.css';

/**
 * Mantine's toast container, loaded with the first toast (providers.tsx), placed where no screen keeps
 * its primary actions: on a desktop at the bottom left (page actions are at the top right, a dialog's
 * buttons at its bottom right), at most three at once; on a phone one at a time, just under the top
 * bar, clear of the menu button, the page's actions below its title and a dialog's buttons at its
 * bottom. Each closes after 5 s.
 */
export default function ToastContainer() {
  const narrow = useNarrowScreen();
  return narrow ? (
    <Notifications
      position="top-center"
      classNames={{ root: classes.belowTopBar }}
      autoClose={TOAST_AUTO_CLOSE_MS}
      limit={1}
      containerWidth="calc(100vw - 24px)"
    />
  ) : (
    <Notifications position="bottom-left" autoClose={TOAST_AUTO_CLOSE_MS} limit={3} containerWidth={400} />
  );
}
