import { Group, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { SEARCH_DEBOUNCE_MS } from '#shared/constants';

/**
 * A back-office list's state, kept in the address (?q=&status=&page=) so Back, a reload and a shared
 * link show the same list: the search (and its debounced value), a filter among `filters`, and the
 * page, back to 1 on any change. Typing replaces the history entry; a filter or a page adds one.
 */
export function useListControls<F extends string>(filters: readonly F[] = [], fallback?: F) {
  const [params, setParams] = useSearchParams();
  // What the last change asked for, until the address shows it: react-router's setter reads the
  // address as it was at the last render, so a filter chosen and a search typed at once lost the filter.
  const pending = useRef<URLSearchParams | null>(null);
  useEffect(() => {
    if (pending.current?.toString() === params.toString()) pending.current = null;
  }, [params]);
  const search = params.get('q') ?? '';
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const wanted = params.get('status') as F | null;
  const filter = (wanted !== null && filters.includes(wanted) ? wanted : fallback) as F;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const update = (changes: Record<string, string | null>, replace: boolean) => {
    const next = new URLSearchParams(pending.current ?? params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    pending.current = next;
    setParams(next, { replace, preventScrollReset: true });
  };
  return {
    search,
    debounced,
    filter,
    page,
    setPage: (value: number) => update({ page: value > 1 ? String(value) : null }, false),
    setSearch: (value: string) => update({ q: value, page: null }, true),
    setFilter: (value: F) => update({ status: value === fallback ? null : value, page: null }, false),
  };
}

interface ListToolbarProps<F extends string> {
  controls: ReturnType<typeof useListControls<F>>;
  searchLabel: string;
  searchPlaceholder: string;
  filter?: { label: string; options: readonly F[] };
  /** "12 jobs", or undefined while loading. */
  count: string | undefined;
}

/** Search box, optional filter and result count above a back-office table. */
export function ListToolbar<F extends string>({
  controls,
  searchLabel,
  searchPlaceholder,
  filter,
  count,
}: ListToolbarProps<F>) {
  return (
    <Group mb="md" align="flex-end" gap="md">
      <TextInput
        label={searchLabel}
        placeholder={searchPlaceholder}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={controls.search}
        onChange={(e) => controls.setSearch(e.currentTarget.value)}
        w={{ base: '100%', xs: 300 }}
      />
      {filter ? (
        <Select
          label={filter.label}
          data={[...filter.options]}
          value={controls.filter}
          onChange={(v) => controls.setFilter((v as F) ?? filter.options[0]!)}
          allowDeselect={false}
          w={{ base: '100%', xs: 180 }}
        />
      ) : null}
      <Text c="dimmed" size="sm" role="status" pb={8}>
        {count ?? 'Loading…'}
      </Text>
    </Group>
  );
}

export const countOf = (n: number | undefined, one: string, many: string) =>
  n === undefined ? undefined : `${n} ${n === 1 ? one : many}`;
