import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Every route change starts at the top, unless the URL names an element (#id) to scroll to. */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (hash) {
      // The target may render a moment after the route: look for it on the next frames.
      let tries = 0;
      const seek = () => {
        const target = document.getElementById(decodeURIComponent(hash.slice(1)));
        if (target) target.scrollIntoView();
        else if (tries++ < 20) requestAnimationFrame(seek);
      };
      seek();
      return;
    }
    window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}
