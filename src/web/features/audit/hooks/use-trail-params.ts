import { useSearchParams } from 'react-router';
import { AUDIT_KINDS, type AuditKind } from '#shared/schemas/audit';
import type { AuditFilters } from '../api/audit';

type Filter = Pick<AuditFilters, 'userId' | 'kind' | 'from' | 'to'>;

const isKind = (value: string | null): value is AuditKind =>
  (AUDIT_KINDS as readonly (string | null)[]).includes(value);

/**
 * The Activity page's state, kept in the address (?userId=&kind=&from=&to=, then ?page= or ?before=)
 * so Back, a reload and a shared link show the same entries: the filters, and the place in the trail,
 * a numbered page or the entries older than a cursor. A new filter starts again from the newest; a
 * step through the trail adds a history entry, so Back goes to the newer page.
 */
export function useTrailParams() {
  const [params, setParams] = useSearchParams();
  const before = params.get('before') || undefined;
  const kind = params.get('kind');
  const filters: AuditFilters = {
    userId: params.get('userId') || undefined,
    kind: isKind(kind) ? kind : undefined,
    from: params.get('from') || undefined,
    to: params.get('to') || undefined,
    page: before ? 1 : Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1),
    before,
  };
  const update = (changes: Record<string, string | undefined>, replace = false) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace, preventScrollReset: true },
    );
  const fromTheNewest = { page: undefined, before: undefined };
  return {
    filters,
    /** Typing a date replaces the history entry; choosing a person or a kind adds one. */
    setFilter: (changes: Filter, options: { replace?: boolean } = {}) =>
      update({ ...changes, ...fromTheNewest }, options.replace),
    clearFilters: () =>
      update({ userId: undefined, kind: undefined, from: undefined, to: undefined, ...fromTheNewest }),
    setPage: (page: number) => update({ page: page > 1 ? String(page) : undefined, before: undefined }),
    older: (cursor: string) => update({ before: cursor, page: undefined }),
    newest: () => update(fromTheNewest),
  };
}
