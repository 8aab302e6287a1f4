import { Button, Group, Text } from '@mantine/core';
import { usePagination } from '@mantine/hooks';
import { IconChevronsLeft, IconChevronsRight } from '@tabler/icons-react';
import { PAGINATION_WINDOW } from '#shared/constants';

interface PaginationBarProps {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
}

/** Previous/Next, a window of five page numbers around the current one, first/last shortcuts and ellipses. */
export function PaginationBar({ page, totalPages, onChange }: PaginationBarProps) {
  const pagination = usePagination({
    total: Math.max(1, totalPages),
    page,
    onChange,
    siblings: Math.floor(PAGINATION_WINDOW / 2),
    boundaries: 1,
  });
  if (totalPages <= 1) return null;
  return (
    <Group component="nav" aria-label="Pages" gap={6} justify="center" mt="md" wrap="wrap">
      <Button
        variant="default"
        size="compact-md"
        onClick={pagination.first}
        disabled={page === 1}
        aria-label="First page"
        px={6}
      >
        <IconChevronsLeft size={18} aria-hidden />
      </Button>
      <Button variant="default" size="compact-md" onClick={pagination.previous} disabled={page === 1}>
        Previous
      </Button>
      {pagination.range.map((item, i) =>
        item === 'dots' ? (
          <Text key={`dots-${i}`} aria-hidden c="dimmed" px={4}>
            …
          </Text>
        ) : (
          <Button
            key={item}
            size="compact-md"
            variant={item === page ? 'filled' : 'default'}
            aria-current={item === page ? 'page' : undefined}
            aria-label={`Page ${item}`}
            onClick={() => pagination.setPage(item)}
            miw={36}
          >
            {item}
          </Button>
        ),
      )}
      <Button variant="default" size="compact-md" onClick={pagination.next} disabled={page === totalPages}>
        Next
      </Button>
      <Button
        variant="default"
        size="compact-md"
        onClick={pagination.last}
        disabled={page === totalPages}
        aria-label="Last page"
        px={6}
      >
        <IconChevronsRight size={18} aria-hidden />
      </Button>
    </Group>
  );
}
