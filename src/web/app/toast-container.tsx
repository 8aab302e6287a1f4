import { useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { NARROW_BREAKPOINT_PX, TOAST_AUTO_CLOSE_MS } from '../../shared/constants';

/**
 * Mantine's toast container, loaded with the first toast (providers.tsx): at the bottom, where no
 * page keeps its menu button or its primary action (Start work, Save), closing after 5 s, at most
 * three at once (more wait their turn); across the bottom on a phone.
 */
export default function ToastContainer() {
  const narrow = useMediaQuery(`(max-width: ${NARROW_BREAKPOINT_PX - 0.02}px)`, false, {
    getInitialValueInEffect: false,
  });
  return (
    <Notifications
      position={narrow ? 'bottom-center' : 'bottom-right'}
      autoClose={TOAST_AUTO_CLOSE_MS}
      limit={3}
      containerWidth={narrow ? 'calc(100vw - 24px)' : 440}
    />
  );
}
