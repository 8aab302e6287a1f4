import { Alert, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { messages } from '#shared/messages';
import { QUOTE_BUILDER_ID } from '#shared/paths';
import { priceQuote } from '#shared/money';
import type { QuoteDraft, QuoteView } from '#shared/schemas/quotes';
import { isHourly, type PriceBookItem } from '#shared/schemas/price-book';
import type { QuoteRequestDetail } from '#shared/schemas/staff-quote-requests';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QuoteTotals } from '../../../components/quote-totals';
import { hasErrorCode } from '../../../lib/api-client';
import { addressLine } from '../../../lib/links';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useLeaveGuard } from '../../../lib/use-leave-guard';
import { useSendQuote } from '../api/quotes';
import { forgetDraft } from '../lib/draft-store';
import { draftKeyOf, useDraftAutosave, useQuoteForm, type QuoteFormOutput } from '../lib/quote-form';
import { LineEditor } from './line-editor';
import { FLAT_LINES, LABOR_LINES, MATERIAL_LINES } from './line-kinds';
import { PriceBookSearch } from './price-book-search';
import { QuoteDocument } from './quote-document';
import { QuoteNotes, QuoteTerms } from './quote-terms';
import { TemplateTools } from './template-tools';

interface QuoteBuilderProps {
  request: QuoteRequestDetail;
  /** The sent quote this builder makes a new version of (its lines to start from). */
  revising?: QuoteView;
  /** After the revision is sent, or when the owner cancels it. */
  onDone?: () => void;
}

/** Quote Builder: lines and names on the right, the live preview on the left, then Send Quote (or its revision). */
export function QuoteBuilder({ request, revising, onDone }: QuoteBuilderProps) {
  const config = siteConfig();
  const draftKey = draftKeyOf(request, revising);
  const form = useQuoteForm(request, revising);
  const [sent, setSent] = useState(false);
  const values = useDraftAutosave(form.control, draftKey, sent);
  const leaving = useLeaveGuard(!sent && values.materials.length + values.labor.length > 0);
  const [draft, setDraft] = useState<QuoteDraft | null>(null);
  const previewRef = useRef<HTMLDivElement>(null);
  const { draft: createDraft, send, revise } = useSendQuote();
  const priced = priceQuote(
    values.materials,
    values.labor.map((l) => ({ ...l, description: l.description ?? '', hours: l.hours ?? 0 })),
    config.taxRateBasisPoints,
  );
  const sending = createDraft.isPending || send.isPending || revise.isPending;
  const linesError = form.formState.errors.materials?.root?.message ?? form.formState.errors.materials?.message;

  const sendNow = async (body: QuoteFormOutput) => {
    try {
      const created = await createDraft.mutateAsync(body);
      setDraft(created);
      if (revising) await revise.mutateAsync({ ...body, quote: created });
      else
        await send.mutateAsync({
          ...body,
          userEmail: request.contactPerson.email,
          quote: created,
          quoteHTML: previewRef.current?.outerHTML ?? '',
        });
      setSent(true);
      forgetDraft(draftKey);
      if (!request.contactPerson.email)
        toast.success(`Quote ${created.quoteId} saved; not e-mailed (no e-mail on file)`);
      else toast.success(revising ? `Quote ${created.quoteId} sent to the client` : messages.quoteSent);
      onDone?.();
    } catch (error) {
      toast.error(
        hasErrorCode(error, 'QUOTE_ALREADY_SENT', 'REQUEST_NOT_PENDING', 'QUOTE_NOT_REVISABLE', 'VALIDATION_FAILED')
          ? error.message
          : messages.quoteSendError,
      );
    }
  };
  // Adding a line answers "Add at least one material or labor line".
  const lineSaved = () => form.clearErrors('materials');
  // An entry of the price book becomes a line at quantity 1: a material, hourly labor, or a flat price.
  const addFromBook = (item: PriceBookItem) => {
    const common = { optional: false, taxable: item.taxable };
    if (item.kind === 'material')
      form.setValue('materials', [
        ...form.getValues('materials'),
        { name: item.name, unitPrice: item.unitPrice, quantity: 1, ...common },
      ]);
    else
      form.setValue('labor', [
        ...form.getValues('labor'),
        { description: item.name, hourlyRate: item.unitPrice, hours: 1, flat: !isHourly(item), ...common },
      ]);
    lineSaved();
    toast.success(`${item.name} added`);
  };

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      mt="md"
      id={QUOTE_BUILDER_ID}
      // Opened at (#quote-builder), it shows below the sticky top bar.
      style={{ scrollMarginTop: 76 }}
    >
      <Group justify="space-between" mb="md">
        <Title order={2} size="h3">
          {revising ? `Revise Quote ${revising.quoteId}` : 'Quote Builder'}
        </Title>
        {revising && onDone ? (
          <Button variant="default" onClick={onDone} disabled={sending}>
            Cancel revision
          </Button>
        ) : null}
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 'content' }}>
          <div ref={previewRef}>
            <QuoteDocument
              compact
              business={{ name: config.businessName, email: config.businessEmail, phone: config.businessPhone }}
              quoteId={draft?.quoteId ?? null}
              clientName={values.clientName}
              projectName={values.projectName}
              validUntil={values.validUntil || undefined}
              notes={values.notes}
              poNumber={values.poNumber}
              // Whom it is for, as sending will keep it: the client's company and billing address, the property.
              companyName={request.companyName}
              billingAddress={request.billingAddress}
              serviceAddress={addressLine(request.address)}
              {...priced}
            />
          </div>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 'auto' }}>
          <Stack>
            <TemplateTools form={form} disabled={sending} />
            <QuoteTerms control={form.control} priced={priced} disabled={sending} timeZone={config.timeZone} />
            <PriceBookSearch onPick={addFromBook} disabled={sending} />
            <LineEditor
              kind={MATERIAL_LINES}
              control={form.control}
              priced={priced.materials}
              taxable={config.materialsTaxable}
              disabled={sending}
              onSaved={lineSaved}
            />
            <LineEditor
              kind={LABOR_LINES}
              also={FLAT_LINES}
              control={form.control}
              priced={priced.labor}
              taxable={config.laborTaxable}
              disabled={sending}
              onSaved={lineSaved}
            />
            <QuoteNotes control={form.control} disabled={sending} />
            {linesError ? (
              <Text c="red.9" size="sm" role="alert">
                {linesError}
              </Text>
            ) : null}
            <Paper withBorder p="sm" radius="md" bg="gray.0">
              <QuoteTotals totals={priced} />
            </Paper>
            {request.contactPerson.email ? null : (
              <Alert color="yellow" title={messages.noEmail} role="note">
                Sending keeps the quote and its PDF here; {request.contactPerson.name || 'the client'} gets nothing by
                e-mail. Read it to them by phone or hand them the PDF.
              </Alert>
            )}
            <Group justify="flex-end">
              <Button
                leftSection={<IconSend size={18} aria-hidden />}
                onClick={() => void form.handleSubmit(sendNow)()}
                loading={sending}
                size="md"
              >
                {revising ? 'Send Revised Quote' : 'Send Quote'}
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
      </Grid>
      <ConfirmDialog
        opened={leaving.asking}
        title="Leave this quote?"
        confirmLabel="Leave"
        onConfirm={leaving.leave}
        onClose={leaving.stay}
      >
        <Text size="sm">
          The quote is not sent yet. Its lines stay saved in this browser and come back when you open this request
          again.
        </Text>
      </ConfirmDialog>
    </Paper>
  );
}
