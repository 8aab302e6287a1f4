import { useEffect } from 'react';
import { siteConfig } from './site-config';

/** Sets the document title as "Page | Business". */
export function usePageTitle(title: string | undefined) {
  useEffect(() => {
    const { businessName } = siteConfig();
    document.title = title ? `${title} | ${businessName}` : businessName;
  }, [title]);
}
