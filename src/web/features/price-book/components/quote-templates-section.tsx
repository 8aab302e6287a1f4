import { Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { formatDollars } from '#shared/money';
import { z } from 'zod';
import type { QuoteTemplate } from '#shared/schemas/quotes';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormModal, type FormModalField } from '../../../components/form-modal';
import { ListTable } from '../../../components/list-table';
import { editAndDeleteCells } from '../../../components/row-actions';
import { toast } from '../../../lib/toast';
import { useDeleteTemplate, useQuoteTemplates, useRenameTemplate } from '../api/quote-templates';

/**
 * The name asked here; the route's own schema (quoteTemplateRename) checks the rest and its words show in
 * the dialog. Importing that schema would put the quotes' schemas in a chunk of their own, and its name
 * in every public page's route table (decision 033's budget).
 */
const renameInput = z.object({ name: z.string().trim().min(1, 'Template name is required') });

const RENAME_FIELDS: FormModalField<{ name: string }>[] = [{ name: 'name', label: 'Template name', type: 'text' }];

/** What a template's lines come to before tax (optional lines left out), as the quote would start. */
function startingTotal(template: QuoteTemplate) {
  const materials = template.materials.filter((m) => !m.optional).reduce((s, m) => s + m.unitPrice * m.quantity, 0);
  const labor = template.labor
    .filter((l) => !l.optional)
    .reduce((s, l) => s + l.hourlyRate * (l.flat ? 1 : l.hours), 0);
  return Math.round((materials + labor) * 100) / 100;
}

const lineCount = (t: QuoteTemplate) => {
  const n = t.materials.length + t.labor.length;
  return `${n} line${n === 1 ? '' : 's'}`;
};

/**
 * The quote templates, under the price book (what else quoting starts from): saved from the Quote
 * Builder, started from there; renamed and deleted here.
 */
export function QuoteTemplatesSection() {
  const templates = useQuoteTemplates();
  const rename = useRenameTemplate();
  const remove = useDeleteTemplate();
  const [renaming, setRenaming] = useState<QuoteTemplate | null>(null);
  const [deleting, setDeleting] = useState<QuoteTemplate | null>(null);
  const rows = templates.data?.templates;

  return (
    <>
      <Title order={2} size="h3" mt="xl" mb="xs" id="quote-templates">
        Quote templates
      </Title>
      <Text size="sm" c="dimmed" mb="md" maw={720}>
        Save a quote as a template from the Quote Builder (“Save as template”), then start a new quote from it there
        (“Start from a template”): its lines, prices and the notes the client reads, never the internal notes. Prices
        stay editable on each quote.
      </Text>
      <ListTable
        label="Quote templates"
        columns={['Name', 'Lines', 'Before tax', 'Rename', 'Delete']}
        actionColumns={2}
        rows={rows}
        loading={templates.isPending}
        rowKey={(t) => t._id}
        empty="No templates yet: save one from the Quote Builder of a request."
        renderRow={(t) => [
          <Stack key="n" gap={0}>
            <Text fw={600}>{t.name}</Text>
            {t.notes ? (
              <Text size="xs" c="dimmed" lineClamp={2}>
                {t.notes}
              </Text>
            ) : null}
          </Stack>,
          lineCount(t),
          formatDollars(startingTotal(t)),
          ...editAndDeleteCells(
            t.name,
            () => setRenaming(t),
            () => setDeleting(t),
          ),
        ]}
      />
      <FormModal
        opened={renaming !== null}
        title="Rename template"
        submitLabel="Save"
        schema={renameInput}
        fields={RENAME_FIELDS}
        initialValues={{ name: renaming?.name ?? '' }}
        onSubmit={async ({ name }) => {
          await rename.mutateAsync({ id: renaming!._id, name });
          toast.success(`Template renamed to ${name}`);
        }}
        loading={rename.isPending}
        onClose={() => setRenaming(null)}
      />
      <ConfirmDialog
        opened={Boolean(deleting)}
        title="Delete this template?"
        confirmLabel="Delete"
        confirmColor="red.9"
        onConfirm={() => {
          const target = deleting;
          setDeleting(null);
          if (target)
            remove.mutate(target._id, {
              onSuccess: () => toast.success(`Template ${target.name} deleted`),
              onError: (error) => toast.error(error.message),
            });
        }}
        onClose={() => setDeleting(null)}
      >
        <Text>{deleting?.name} is deleted. Quotes started from it keep their lines and prices.</Text>
      </ConfirmDialog>
    </>
  );
}
