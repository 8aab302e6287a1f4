import type { UserRole } from '#shared/constants';
import { paths } from '#shared/paths';

/** Where a role lands after signing in when it was going nowhere in particular. */
export const homeOf = (role: UserRole) => (role === 'admin' ? paths.admin.dashboard : paths.employee.dashboard);

/**
 * The page to return to after signing in, from the sign-in page's `next`: only a path on this site
 * (never "//elsewhere" or "https://…"), and only in an area the role may open; else the role's home.
 */
export function returnPath(next: string | null, role: UserRole): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return homeOf(role);
  let url: URL;
  try {
    url = new URL(next, 'https://same.site');
  } catch {
    return homeOf(role);
  }
  if (url.origin !== 'https://same.site') return homeOf(role);
  const areas = role === 'admin' ? [paths.admin.root, paths.employee.root] : [paths.employee.root];
  const allowed = areas.some((area) => url.pathname === area || url.pathname.startsWith(`${area}/`));
  return allowed ? `${url.pathname}${url.search}${url.hash}` : homeOf(role);
}

/** The current page as a `next` value. */
export const currentPath = () => `${window.location.pathname}${window.location.search}`;
