import { Notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { TOAST_AUTO_CLOSE_MS } from '#shared/constants';
import { useNarrowScreen } from '../lib/narrow-screen';
import { toast } from '../lib/toast';
import classes from './toast-container.module.css';

/**
 * Mantine's toast container, loaded with the first toast (providers.tsx), placed where no screen keeps
 * its primary actions: on a desktop at the bottom left (page actions are at the top right, a dialog's
 * buttons at its bottom right), at most three at once; on a phone one at a time, just under the top
 * bar, clear of the menu button, the page's actions below its title and a dialog's buttons at its
 * bottom. Each closes after 5 s. On a phone a toast gives way when a field that opens a list takes the
 * focus or is typed in (the quote builder's price-book search, a client picker): under the top bar it
 * lay over the list's first options and took the tap meant for them.
 */
export default function ToastContainer() {
  const narrow = useNarrowScreen();
  useEffect(() => {
    if (!narrow) return;
    const giveWay = (event: Event) => {
      const field = event.target;
      if (field instanceof Element && field.matches('[role="combobox"], [aria-haspopup="listbox"]')) toast.clear();
    };
    document.addEventListener('focusin', giveWay);
    document.addEventListener('input', giveWay);
    return () => {
      document.removeEventListener('focusin', giveWay);
      document.removeEventListener('input', giveWay);
    };
  }, [narrow]);
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
