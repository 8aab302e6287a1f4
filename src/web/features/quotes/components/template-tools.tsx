import { Alert, Button, Group, Modal, Select, Text } from '@mantine/core';
import { IconDeviceFloppy, IconEye, IconTemplate } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { quoteTemplateRename, type ClientQuoteView, type QuoteTemplate } from '#shared/schemas/quotes';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormModal, type FormModalField } from '../../../components/form-modal';
import { ApiError } from '../../../lib/api-client';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { usePreviewQuote, useQuoteTemplates, useSaveTemplate } from '../api/quotes';
import type { QuoteFormInput, QuoteFormOutput } from '../lib/quote-form';

// The client's page itself, loaded when the office first previews (the same chunk as the client's route).
const ClientQuoteSheet = lazy(() =>
  import('../pages/client-quote-page').then((m) => ({ default: m.ClientQuoteSheet })),
);

type QuoteForm = UseFormReturn<QuoteFormInput, unknown, QuoteFormOutput>;
const NAME_FIELDS: FormModalField<{ name: string }>[] = [{ name: 'name', label: 'Template name', type: 'text' }];

/** A template's lines and client notes into the builder (its prices, editable there; internal notes untouched). */
function applyTemplate(form: QuoteForm, template: QuoteTemplate) {
  const { materialsTaxable, laborTaxable } = siteConfig();
  form.setValue(
    'materials',
    template.materials.map((m) => ({ ...m, taxable: m.taxable ?? materialsTaxable })),
    { shouldDirty: true },
  );
  form.setValue(
    'labor',
    template.labor.map((l) => ({ ...l, taxable: l.taxable ?? laborTaxable })),
    { shouldDirty: true },
  );
  form.setValue('notes', template.notes, { shouldDirty: true });
  form.clearErrors('materials');
}

/** Start from a template, save the quote as one, and preview it exactly as the client will see it. */
export function TemplateTools({ form, disabled }: { form: QuoteForm; disabled: boolean }) {
  const narrow = useNarrowScreen();
  const [choosing, setChoosing] = useState(false);
  const templates = useQuoteTemplates(choosing);
  const save = useSaveTemplate();
  const preview = usePreviewQuote();
  const [naming, setNaming] = useState(false);
  const [replacing, setReplacing] = useState<QuoteTemplate | null>(null);
  const [shown, setShown] = useState<ClientQuoteView | null>(null);

  const hasLines = () => form.getValues('materials').length + form.getValues('labor').length > 0;
  const choose = (id: string | null) => {
    const template = templates.data?.templates.find((t) => t._id === id);
    if (!template) return;
    if (hasLines()) setReplacing(template);
    else {
      applyTemplate(form, template);
      toast.success(`Started from ${template.name}`);
    }
  };
  const showPreview = () =>
    void form.handleSubmit(async (body) => {
      try {
        setShown(await preview.mutateAsync(body));
      } catch (error) {
        toast.error(error instanceof ApiError ? error.message : 'The preview could not be made');
      }
    })();

  return (
    <>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Select
          label="Start from a template"
          placeholder={templates.isFetching ? 'Loading…' : 'Choose a template'}
          data={(templates.data?.templates ?? []).map((t) => ({ value: t._id, label: t.name }))}
          nothingFoundMessage={templates.isPending ? 'Loading…' : 'No templates yet'}
          searchable
          value={null}
          onDropdownOpen={() => setChoosing(true)}
          onFocus={() => setChoosing(true)}
          onChange={choose}
          disabled={disabled}
          leftSection={<IconTemplate size={16} aria-hidden />}
          miw={220}
          style={{ flex: 1 }}
        />
        <Button
          variant="default"
          leftSection={<IconDeviceFloppy size={18} aria-hidden />}
          onClick={() => {
            if (!hasLines()) toast.error('Add a line before saving a template');
            else setNaming(true);
          }}
          disabled={disabled}
        >
          Save as template
        </Button>
        <Button
          variant="light"
          leftSection={<IconEye size={18} aria-hidden />}
          onClick={showPreview}
          loading={preview.isPending}
          disabled={disabled}
        >
          Preview
        </Button>
      </Group>
      <FormModal
        opened={naming}
        title="Save as template"
        submitLabel="Save template"
        schema={quoteTemplateRename}
        fields={NAME_FIELDS}
        initialValues={{ name: form.getValues('projectName') }}
        onSubmit={async ({ name }) => {
          const { materials, labor, notes } = form.getValues();
          await save.mutateAsync({ name, materials, labor, notes });
          toast.success(`Template ${name} saved`);
        }}
        loading={save.isPending}
        onClose={() => setNaming(false)}
      />
      <ConfirmDialog
        opened={replacing !== null}
        title="Replace the lines?"
        confirmLabel="Replace lines"
        onConfirm={() => {
          if (replacing) {
            applyTemplate(form, replacing);
            toast.success(`Started from ${replacing.name}`);
          }
          setReplacing(null);
        }}
        onClose={() => setReplacing(null)}
      >
        <Text size="sm">
          The quote&apos;s lines and client notes become those of {replacing?.name}. Internal notes stay as they are.
        </Text>
      </ConfirmDialog>
      <Modal
        opened={shown !== null}
        onClose={() => setShown(null)}
        title="Preview: the quote as the client will see it"
        size={1000}
        fullScreen={narrow}
        padding={narrow ? 'xs' : 'md'}
      >
        <Alert color="blue" mb="sm" role="note" title="Not sent yet">
          This is the client&apos;s page for this quote. Its buttons do nothing here; the number and the date are given
          when you send it.
        </Alert>
        {shown ? (
          <Suspense fallback={<Text c="dimmed">Loading the client’s page…</Text>}>
            <ClientQuoteSheet quote={shown} token="" preview onStale={() => undefined} />
          </Suspense>
        ) : null}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setShown(null)}>
            Close preview
          </Button>
        </Group>
      </Modal>
    </>
  );
}
