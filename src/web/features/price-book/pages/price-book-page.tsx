import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatDollars } from '#shared/money';
import { paths } from '#shared/paths';
import {
  isHourly,
  MAX_PRICE_BOOK_ITEMS,
  priceBookItemInput,
  type PriceBookItem,
  type PriceBookItemInput,
  type PriceBookKind,
} from '#shared/schemas/price-book';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormModal, type FormModalField } from '../../../components/form-modal';
import { ListTable } from '../../../components/list-table';
import { editAndDeleteCells } from '../../../components/row-actions';
import { countOf, ListToolbar, useListControls } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { siteConfig } from '../../../lib/site-config';
import { useMay } from '../../../lib/team-role';
import { toast } from '../../../lib/toast';
import { useDeletePriceBookItem, usePriceBook, useSavePriceBookItem } from '../api/price-book';
import { QuoteTemplatesSection } from '../components/quote-templates-section';
import { ServicePlansSection } from '../components/service-plans-section';

const SHOWN = ['All', 'Services', 'Materials'] as const;
const KIND_OF: Record<(typeof SHOWN)[number], PriceBookKind | null> = {
  All: null,
  Services: 'service',
  Materials: 'material',
};

const FIELDS: FormModalField<PriceBookItemInput>[] = [
  { name: 'kind', label: 'Kind', type: 'select', options: ['service', 'material'] },
  { name: 'name', label: 'Name', type: 'text', placeholder: 'e.g. Install a ceiling fan' },
  { name: 'description', label: 'Description', type: 'text', optional: true, placeholder: 'What the client reads' },
  { name: 'unit', label: 'Unit', type: 'text', placeholder: 'hour, each, sq ft, job' },
  { name: 'unitPrice', label: 'Price', type: 'number', prefix: '$', step: 1 },
  { name: 'taxable', label: 'Charge sales tax', type: 'checkbox' },
];

/** "Hourly labor", "Flat price" or "Material": how an entry lands on a quote. */
const howQuoted = (item: PriceBookItem) =>
  item.kind === 'material' ? 'Material' : isHourly(item) ? 'Hourly labor' : 'Flat price';

/** The price book: services and materials with their prices, for the quote builder and the crew. */
export default function PriceBookPage() {
  const list = useListControls(SHOWN, 'All');
  const book = usePriceBook(list.debounced, KIND_OF[list.filter]);
  const save = useSavePriceBookItem();
  const remove = useDeletePriceBookItem();
  const [editing, setEditing] = useState<PriceBookItem | PriceBookKind | null>(null);
  const [deleting, setDeleting] = useState<PriceBookItem | null>(null);
  const { materialsTaxable, laborTaxable } = siteConfig();
  const mayChangeTax = useMay('owner');

  const adding = editing === 'service' || editing === 'material';
  // A new entry starts as its kind usually is: a service by the hour at the labor tax default, a material each.
  const blank = (kind: PriceBookKind): PriceBookItemInput => ({
    kind,
    name: '',
    description: '',
    unit: kind === 'service' ? 'hour' : 'each',
    unitPrice: 0,
    taxable: kind === 'service' ? laborTaxable : materialsTaxable,
  });
  const initial: PriceBookItemInput = editing === null ? blank('service') : adding ? blank(editing) : editing;
  const total = book.data?.total;

  return (
    <>
      <PageHeader
        title="Price book"
        actions={
          <Group gap="xs">
            <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing('service')}>
              Add service
            </Button>
            <Button
              variant="light"
              leftSection={<IconPlus size={18} aria-hidden />}
              onClick={() => setEditing('material')}
            >
              Add material
            </Button>
          </Group>
        }
      />
      <Text size="sm" c="dimmed" mb="md" maw={720}>
        Search it from the Quote Builder to add a line without retyping. A service by the hour becomes hourly labor, any
        other unit a flat-price line; the materials are also what the crew picks from on a job. New materials are taxed{' '}
        {materialsTaxable ? '' : 'not '}by default, labor {laborTaxable ? '' : 'not '}
        {mayChangeTax ? (
          <>
            (
            <Anchor component={Link} to={paths.admin.settings} inherit underline="always">
              Settings → Quotes
            </Anchor>
            ).
          </>
        ) : (
          '(the Owner sets this in Settings).'
        )}
      </Text>
      <ListToolbar
        controls={list}
        searchLabel="Search"
        searchPlaceholder="Name or description"
        filter={{ label: 'Show', options: SHOWN }}
        count={countOf(total, 'entry', 'entries')}
      />
      <ListTable
        label="Price book"
        columns={['Name', 'Quoted as', 'Unit', 'Price', 'Tax', 'Edit', 'Delete']}
        actionColumns={2}
        rows={book.data?.items}
        loading={book.isPending}
        rowKey={(item) => item._id}
        empty={list.debounced ? 'Nothing in the price book matches.' : 'The price book is empty: add a service.'}
        renderRow={(item) => [
          <Stack key="n" gap={0}>
            <Text fw={600}>{item.name}</Text>
            {item.description ? (
              <Text size="xs" c="dimmed" lineClamp={2}>
                {item.description}
              </Text>
            ) : null}
          </Stack>,
          <Badge key="k" variant="light" color={item.kind === 'material' ? 'gray' : 'brand'} c="dark.6" tt="none">
            {howQuoted(item)}
          </Badge>,
          item.unit,
          formatDollars(item.unitPrice),
          item.taxable ? 'Taxed' : 'Not taxed',
          ...editAndDeleteCells(
            item.name,
            () => setEditing(item),
            () => setDeleting(item),
          ),
        ]}
      />
      {total !== undefined && book.data && total > book.data.items.length ? (
        <Text size="sm" c="dimmed" mt="sm">
          Showing {book.data.items.length} of {total}: search to narrow.
        </Text>
      ) : null}
      {total !== undefined && total >= MAX_PRICE_BOOK_ITEMS && !list.debounced ? (
        <Text size="sm" c="red.9" mt="sm">
          The price book is full ({MAX_PRICE_BOOK_ITEMS} entries): remove one before adding another.
        </Text>
      ) : null}
      <FormModal
        opened={editing !== null}
        title={adding ? `Add ${editing}` : 'Edit price book entry'}
        submitLabel={adding ? 'Add' : 'Save'}
        schema={priceBookItemInput}
        fields={FIELDS}
        initialValues={initial}
        onSubmit={async (body) => {
          await save.mutateAsync({ id: editing && typeof editing === 'object' ? editing._id : null, body });
          toast.success(adding ? `${body.name} added to the price book` : `${body.name} saved`);
        }}
        loading={save.isPending}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        opened={Boolean(deleting)}
        title="Remove from the price book?"
        confirmLabel="Remove"
        confirmColor="red.9"
        onConfirm={() => {
          const target = deleting;
          setDeleting(null);
          if (target)
            remove.mutate(target._id, {
              onSuccess: () => toast.success(`${target.name} removed from the price book`),
              onError: (error) => toast.error(error.message),
            });
        }}
        onClose={() => setDeleting(null)}
      >
        <Text>
          {deleting?.name} leaves the price book. Quotes and jobs that already have it keep their lines and prices.
        </Text>
      </ConfirmDialog>
      <QuoteTemplatesSection />
      <ServicePlansSection />
    </>
  );
}
