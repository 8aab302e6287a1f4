import { Group, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useNarrowScreen } from '../lib/narrow-screen';
import classes from './list-table.module.css';
import { ScrollTable } from './scroll-table';

interface ListTableProps<T> {
  /** What the table lists, for screen readers. */
  label: string;
  columns: string[];
  rows: T[] | undefined;
  loading: boolean;
  rowKey: (row: T) => string;
  renderRow: (row: T) => ReactNode[];
  empty: string;
  skeletonRows?: number;
  /** How many of the last columns hold the row's actions (View, Edit, Delete): a card's footer on a phone. */
  actionColumns?: number;
}

/**
 * A back-office list: a table on wider screens; on a phone each row is a card with its fields
 * labelled and its actions in view, so nothing hides in a sideways-scrolling table. Skeletons while
 * loading, a sentence when empty.
 */
export function ListTable<T>(props: ListTableProps<T>) {
  const narrow = useNarrowScreen();
  return narrow ? <ListCards {...props} /> : <WideTable {...props} />;
}

function WideTable<T>({
  label,
  columns,
  rows,
  loading,
  rowKey,
  renderRow,
  empty,
  skeletonRows = 10,
}: ListTableProps<T>) {
  return (
    <Paper withBorder radius="lg" className={classes.frame}>
      <ScrollTable label={label} minWidth={620}>
        <Table striped highlightOnHover verticalSpacing="sm" horizontalSpacing="md">
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c}>{c}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {loading
              ? Array.from({ length: skeletonRows }, (_, i) => (
                  <Table.Tr key={i} data-testid="skeleton-row">
                    {columns.map((c) => (
                      <Table.Td key={c}>
                        <Skeleton h={16} />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              : rows?.map((row) => (
                  <Table.Tr key={rowKey(row)}>
                    {renderRow(row).map((cell, i) => (
                      <Table.Td key={columns[i]}>{cell}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
            {!loading && rows?.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={columns.length}>
                  <Text c="dimmed" ta="center" py="lg">
                    {empty}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
          </Table.Tbody>
        </Table>
      </ScrollTable>
    </Paper>
  );
}

function ListCards<T>({
  label,
  columns,
  rows,
  loading,
  rowKey,
  renderRow,
  empty,
  skeletonRows = 4,
  actionColumns = 1,
}: ListTableProps<T>) {
  const fieldCount = columns.length - actionColumns;
  if (loading)
    return (
      <Stack gap="sm" aria-label={label} aria-busy>
        {Array.from({ length: skeletonRows }, (_, i) => (
          <Skeleton key={i} h={96} radius="lg" data-testid="skeleton-row" />
        ))}
      </Stack>
    );
  if (!rows?.length)
    return (
      <Paper withBorder radius="lg" p="lg">
        <Text c="dimmed" ta="center">
          {empty}
        </Text>
      </Paper>
    );
  return (
    <Stack component="ul" gap="sm" aria-label={label} className={classes.cards}>
      {rows.map((row) => {
        const cells = renderRow(row);
        return (
          <Paper component="li" key={rowKey(row)} withBorder radius="lg" p="md" className={classes.card}>
            <div className={classes.title}>{cells[0]}</div>
            <dl className={classes.fields}>
              {cells.slice(1, fieldCount).map((cell, i) => (
                <div key={columns[i + 1]} className={classes.field}>
                  <dt>{columns[i + 1]}</dt>
                  <dd>{cell}</dd>
                </div>
              ))}
            </dl>
            <Group gap="sm" justify="flex-end" className={classes.actions}>
              {cells.slice(fieldCount)}
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}
