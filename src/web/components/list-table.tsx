import { Paper, Skeleton, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
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
}

/** A back-office table: skeleton rows while loading, a sentence when empty, scrolls sideways on phones. */
export function ListTable<T>({
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
    <Paper withBorder radius="lg">
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
