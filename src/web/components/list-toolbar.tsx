import { Group, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../shared/constants';

/** A back-office list's state: the search (and its debounced value), a filter, and the page, back to 1 on any change. */
export function useListControls<F extends string>(initialFilter: F) {
  const [search, setSearchNow] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [filter, setFilterNow] = useState<F>(initialFilter);
  const [page, setPage] = useState(1);
  return {
    search,
    debounced,
    filter,
    page,
    setPage,
    setSearch: (value: string) => {
      setSearchNow(value);
      setPage(1);
    },
    setFilter: (value: F) => {
      setFilterNow(value);
      setPage(1);
    },
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
