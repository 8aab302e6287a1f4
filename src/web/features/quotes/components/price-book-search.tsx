import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '#shared/constants';
import { formatDollars } from '#shared/money';
import { isHourly, PRICE_BOOK_SEARCH_LENGTH, type PriceBookItem } from '#shared/schemas/price-book';
import { usePriceBookSearch } from '../api/price-book-search';

/** "Ceiling fan install — $149.50 each (flat price)" */
const optionLabel = (item: PriceBookItem) =>
  `${item.name} — ${formatDollars(item.unitPrice)} / ${item.unit}${
    item.kind === 'material' ? ' (material)' : isHourly(item) ? ' (labor)' : ' (flat price)'
  }`;

/** Search the price book and add the chosen entry as a line: no retyping of names and prices. */
export function PriceBookSearch({ onPick, disabled }: { onPick: (item: PriceBookItem) => void; disabled: boolean }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [opened, setOpened] = useState(false);
  const found = usePriceBookSearch(debounced, opened || debounced !== '');
  // Only the answer to what is typed now is offered. An earlier answer shown while the next one comes
  // would be replaced under the person's click: the pick lost, or another entry added in its place.
  const answered = debounced === search.trim() && !found.isPlaceholderData && found.data !== undefined;
  const items = answered ? found.data.items : [];
  return (
    <Select
      label="Add from the price book"
      placeholder="Search services and materials"
      leftSection={<IconSearch size={16} aria-hidden />}
      searchable
      clearable={false}
      value={null}
      searchValue={search}
      maxLength={PRICE_BOOK_SEARCH_LENGTH}
      onSearchChange={setSearch}
      onDropdownOpen={() => setOpened(true)}
      data={items.map((item) => ({ value: item._id, label: optionLabel(item) }))}
      // The server searched names and descriptions; show what it found.
      filter={({ options }) => options}
      nothingFoundMessage={
        answered
          ? 'Nothing in the price book matches'
          : found.fetchStatus === 'paused'
            ? 'No connection: the search goes on once the connection is back.'
            : found.isError && !found.isFetching
              ? 'The price book could not be searched. Check the connection, then type again.'
              : 'Searching…'
      }
      onChange={(id) => {
        const item = items.find((i) => i._id === id);
        if (!item) return;
        onPick(item);
        setSearch('');
      }}
      disabled={disabled}
      maxDropdownHeight={280}
      // Always below the field: flipping above it near the window's bottom made the list jump as it filled.
      comboboxProps={{ withinPortal: true, position: 'bottom-start', middlewares: { flip: false, shift: false } }}
    />
  );
}
