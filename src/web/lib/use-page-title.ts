import { useEffect } from 'react';
import { documentTitle } from '#shared/page-meta';
import { siteConfig } from './site-config';

/** Sets the document title as "Page | Business" (the home page: "Business — Handyman in Sacramento"). */
export function usePageTitle(title: string | undefined) {
  useEffect(() => {
    document.title = documentTitle(title, siteConfig().businessName);
  }, [title]);
}
