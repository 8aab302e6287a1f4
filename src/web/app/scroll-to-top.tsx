import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** A hand-typed or broken link (`/#%`) must not break the page: an undecodable id is used as it is. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Every route change starts at the top, unless the URL names an element (#id) to scroll to. */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (hash) {
      // The target may render a moment after the route (its data loading): look for it for about 2 s.
      let tries = 0;
      const seek = () => {
        const target = document.getElementById(safeDecode(hash.slice(1)));
        if (target) target.scrollIntoView();
        else if (tries++ < 120) requestAnimationFrame(seek);
      };
      seek();
      return;
    }
    window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}
