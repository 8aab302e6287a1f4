import {
  ActionIcon,
  Button,
  Grid,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPencil, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { messages } from '../../../../shared/messages';
import { depositParts, formatDollars, formatMoney, priceQuote, quoteBase } from '../../../../shared/money';
import {
  createQuoteInput,
  laborLineInput,
  materialLineInput,
  type LaborLineInput,
  type MaterialLineInput,
  type QuoteDraft,
  type QuoteView,
} from '../../../../shared/schemas/quotes';
import { addDays, todayIn } from '../../../../shared/dates';
import type { QuoteRequestDetail } from '../../../../shared/schemas/staff-quote-requests';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormModal } from '../../../components/form-modal';
import { hasErrorCode } from '../../../lib/api-client';
import { siteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useLeaveGuard } from '../../../lib/use-leave-guard';
import { useSendQuote } from '../api/quotes';
import { QuoteDocument } from './quote-document';
import { forgetDraft, loadDraft, saveDraft } from '../lib/draft-store';
import { QuoteTotals } from '../../../components/quote-totals';

/** A line the client may choose: left out of the total until they tick it. */
const OPTIONAL_FIELD = {
  name: 'optional',
  label: 'Optional: the client chooses whether to include it',
  type: 'checkbox',
} as const;

/** Whether the line is charged sales tax (its default from Settings). */
const TAXABLE_FIELD = { name: 'taxable', label: 'Charge sales tax on this line', type: 'checkbox' } as const;

/** " (not taxed)" or " (taxed)" where the line departs from what the reader would assume. */
const taxNote = (taxable: boolean, kind: 'material' | 'labor') =>
  kind === 'material' ? (taxable ? '' : ' (not taxed)') : taxable ? ' (taxed)' : '';

interface LineSectionProps {
  title: string;
  addLabel: string;
  empty: string;
  onAdd: () => void;
  disabled: boolean;
  lines: { text: ReactNode; editLabel: string; onEdit: () => void; deleteLabel: string; onDelete: () => void }[];
}

/** Materials or Labor: the lines so far, each to edit or delete, and the button to add one. */
function LineSection({ title, addLabel, empty, onAdd, disabled, lines }: LineSectionProps) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Group justify="space-between" mb={6}>
        <Title order={3} size="h5" id={headingId}>
          {title}
        </Title>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={onAdd}
          disabled={disabled}
        >
          {addLabel}
        </Button>
      </Group>
      {lines.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack gap={4}>
          {lines.map((line, i) => (
            <Group key={i} justify="space-between" wrap="nowrap">
              <Text size="sm">{line.text}</Text>
              <Group gap={2} wrap="nowrap">
                <ActionIcon variant="subtle" aria-label={line.editLabel} onClick={line.onEdit} disabled={disabled}>
                  <IconPencil size={16} aria-hidden />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red.9"
                  aria-label={line.deleteLabel}
                  onClick={line.onDelete}
                  disabled={disabled}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            </Group>
          ))}
        </Stack>
      )}
    </section>
  );
}

/** A first guess at the project's name: the first line of the client's description. */
function projectNameFrom(notes: string) {
  const first = notes.split(/\r?\n|(?<=\.)\s/)[0]?.trim() ?? '';
  return first.length > 60 ? `${first.slice(0, 57).trimEnd()}…` : first.replace(/\.$/, '');
}

const linesOf = (quote: QuoteView) => ({
  materials: quote.materials.map(({ name, unitPrice, quantity, optional, taxable }) => ({
    name,
    unitPrice,
    quantity,
    optional,
    taxable,
  })),
  labor: quote.labor.map(({ description, hourlyRate, hours, optional, taxable }) => ({
    description,
    hourlyRate,
    hours,
    optional,
    taxable,
  })),
});

interface QuoteBuilderProps {
  request: QuoteRequestDetail;
  /** The sent quote this builder makes a new version of (its lines to start from). */
  revising?: QuoteView;
  /** After the revision is sent, or when the owner cancels it. */
  onDone?: () => void;
}

/** Quote Builder: lines and names on the right, the live preview on the left, then Send Quote (or its revision). */
export function QuoteBuilder({ request, revising, onDone }: QuoteBuilderProps) {
  const {
    businessName,
    businessEmail,
    businessPhone,
    taxRateBasisPoints,
    quoteValidityDays,
    timeZone,
    materialsTaxable,
    laborTaxable,
  } = siteConfig();
  // The work so far is kept in this browser until the quote is sent: a reload, a wrong click or an
  // ended session does not throw it away.
  const draftKey = revising ? `${request._id}:v${revising.version + 1}` : request._id;
  const [saved] = useState(() => loadDraft(draftKey));
  const start = revising ? linesOf(revising) : { materials: [], labor: [] };
  const [clientName, setClientName] = useState(saved?.clientName ?? revising?.clientName ?? request.contactPerson.name);
  const [projectName, setProjectName] = useState(
    () => saved?.projectName ?? revising?.projectName ?? projectNameFrom(request.notes),
  );
  // Lines saved in this browser before lines said whether they are taxed get the Settings' defaults.
  const [materials, setMaterials] = useState<MaterialLineInput[]>(() =>
    (saved?.materials ?? start.materials).map((m) => ({ ...m, taxable: m.taxable ?? materialsTaxable })),
  );
  const [labor, setLabor] = useState<LaborLineInput[]>(() =>
    (saved?.labor ?? start.labor).map((l) => ({ ...l, taxable: l.taxable ?? laborTaxable })),
  );
  const [validUntil, setValidUntil] = useState(
    () => saved?.validUntil ?? addDays(todayIn(timeZone), quoteValidityDays),
  );
  const [depositKind, setDepositKind] = useState<'none' | 'percent' | 'amount'>(
    () => saved?.deposit?.kind ?? revising?.deposit?.kind ?? 'none',
  );
  const [depositValue, setDepositValue] = useState<number | string>(
    () => saved?.deposit?.value ?? revising?.deposit?.value ?? '',
  );
  const deposit =
    depositKind === 'none'
      ? null
      : { kind: depositKind, value: typeof depositValue === 'number' ? depositValue : Number.NaN };
  const [editingMaterial, setEditingMaterial] = useState<number | null>(null);
  const [editingLabor, setEditingLabor] = useState<number | null>(null);
  const [sent, setSent] = useState(false);
  const unsent = !sent && materials.length + labor.length > 0;
  useEffect(() => {
    if (sent) return;
    if (materials.length + labor.length === 0) forgetDraft(draftKey);
    else
      saveDraft(draftKey, {
        clientName,
        projectName,
        materials,
        labor,
        validUntil,
        deposit: deposit && Number.isFinite(deposit.value) ? deposit : null,
      });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the deposit is read from its two states
  }, [draftKey, sent, clientName, projectName, materials, labor, validUntil, depositKind, depositValue]);
  const leaving = useLeaveGuard(unsent);
  const [draft, setDraft] = useState<QuoteDraft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [materialOpen, materialDialog] = useDisclosure(false);
  const [laborOpen, laborDialog] = useDisclosure(false);
  const previewRef = useRef<HTMLDivElement>(null);
  const { draft: createDraft, send, revise } = useSendQuote();
  const priced = priceQuote(materials, labor, taxRateBasisPoints);
  const sending = createDraft.isPending || send.isPending || revise.isPending;

  // Adding a line answers "Add at least one material or labor line".
  const clearLineError = () => setErrors(({ materials: _gone, ...rest }) => rest);

  const onSend = async () => {
    const body = { quoteRequestId: request._id, clientName, projectName, materials, labor, validUntil, deposit };
    const parsed = createQuoteInput.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]).reverse()));
      return;
    }
    setErrors({});
    try {
      const created = await createDraft.mutateAsync(parsed.data);
      setDraft(created);
      if (revising) await revise.mutateAsync({ ...parsed.data, quote: created });
      else
        await send.mutateAsync({
          ...parsed.data,
          userEmail: request.contactPerson.email,
          quote: created,
          quoteHTML: previewRef.current?.outerHTML ?? '',
        });
      setSent(true);
      forgetDraft(draftKey);
      toast.success(revising ? `Quote ${created.quoteId} sent to the client` : messages.quoteSent);
      onDone?.();
    } catch (error) {
      toast.error(
        hasErrorCode(error, 'QUOTE_ALREADY_SENT', 'REQUEST_NOT_PENDING', 'QUOTE_NOT_REVISABLE', 'VALIDATION_FAILED')
          ? error.message
          : messages.quoteSendError,
      );
    }
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} mt="md">
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
              business={{ name: businessName, email: businessEmail, phone: businessPhone }}
              quoteId={draft?.quoteId ?? null}
              clientName={clientName}
              projectName={projectName}
              validUntil={validUntil || undefined}
              {...priced}
            />
          </div>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 'auto' }}>
          <Stack>
            <Group grow align="flex-start">
              <TextInput
                label="Client name"
                withAsterisk
                value={clientName}
                onChange={(e) => setClientName(e.currentTarget.value)}
                error={errors.clientName}
                disabled={sending}
              />
              <TextInput
                label="Project name"
                withAsterisk
                value={projectName}
                onChange={(e) => setProjectName(e.currentTarget.value)}
                error={errors.projectName}
                disabled={sending}
              />
            </Group>
            <TextInput
              type="date"
              label="Valid until"
              description="The last day the client can accept this quote"
              withAsterisk
              min={todayIn(timeZone)}
              value={validUntil}
              onChange={(e) => setValidUntil(e.currentTarget.value)}
              error={errors.validUntil}
              disabled={sending}
              maw={260}
            />
            <Group align="flex-end" gap="sm">
              <Select
                label="Deposit on acceptance"
                data={[
                  { value: 'none', label: 'No deposit' },
                  { value: 'percent', label: 'Percent of the total' },
                  { value: 'amount', label: 'Fixed amount' },
                ]}
                value={depositKind}
                onChange={(v) => setDepositKind((v as typeof depositKind | null) ?? 'none')}
                allowDeselect={false}
                disabled={sending}
                maw={220}
              />
              {depositKind === 'none' ? null : (
                <NumberInput
                  label={depositKind === 'percent' ? 'Deposit (%)' : 'Deposit ($)'}
                  value={depositValue}
                  onChange={setDepositValue}
                  min={depositKind === 'percent' ? 1 : 0.01}
                  max={depositKind === 'percent' ? 100 : undefined}
                  decimalScale={depositKind === 'percent' ? 0 : 2}
                  prefix={depositKind === 'amount' ? '$' : undefined}
                  suffix={depositKind === 'percent' ? '%' : undefined}
                  error={errors.deposit}
                  disabled={sending}
                  maw={160}
                />
              )}
              {deposit && Number.isFinite(deposit.value) ? (
                <Text size="sm" c="dimmed" pb={8}>
                  {formatMoney(depositParts(quoteBase(priced), taxRateBasisPoints, deposit).dueCents)} due when the
                  client accepts
                </Text>
              ) : null}
            </Group>

            <LineSection
              title="Materials"
              addLabel="Add Material"
              empty="No materials added"
              onAdd={() => {
                setEditingMaterial(null);
                materialDialog.open();
              }}
              disabled={sending}
              lines={priced.materials.map((m, i) => ({
                editLabel: `Edit material ${m.name}`,
                onEdit: () => {
                  setEditingMaterial(i);
                  materialDialog.open();
                },
                text: (
                  <>
                    {m.name}
                    {m.optional ? ' (optional)' : ''}
                    {taxNote(m.taxable, 'material')} — {m.quantity} × {formatDollars(m.unitPrice)} ={' '}
                    <b>{formatDollars(m.subtotal)}</b>
                  </>
                ),
                deleteLabel: `Delete material ${m.name}`,
                onDelete: () => setMaterials(materials.filter((_, j) => j !== i)),
              }))}
            />
            <LineSection
              title="Labor"
              addLabel="Add Labor"
              empty="No labor added"
              onAdd={() => {
                setEditingLabor(null);
                laborDialog.open();
              }}
              disabled={sending}
              lines={priced.labor.map((l, i) => ({
                editLabel: `Edit labor line ${i + 1}`,
                onEdit: () => {
                  setEditingLabor(i);
                  laborDialog.open();
                },
                text: (
                  <>
                    {l.description
                      ? `${l.description}${l.optional ? ' (optional)' : ''} — `
                      : l.optional
                        ? '(optional) '
                        : ''}
                    {l.hours} h × {formatDollars(l.hourlyRate)}/h = <b>{formatDollars(l.total)}</b>
                    {taxNote(l.taxable, 'labor')}
                  </>
                ),
                deleteLabel: `Delete labor line ${i + 1}`,
                onDelete: () => setLabor(labor.filter((_, j) => j !== i)),
              }))}
            />
            {errors.materials ? (
              <Text c="red.9" size="sm" role="alert">
                {errors.materials}
              </Text>
            ) : null}

            <Paper withBorder p="sm" radius="md" bg="gray.0">
              <QuoteTotals totals={priced} />
            </Paper>
            <Group justify="flex-end">
              <Button leftSection={<IconSend size={18} aria-hidden />} onClick={onSend} loading={sending} size="md">
                {revising ? 'Send Revised Quote' : 'Send Quote'}
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
      </Grid>

      <FormModal
        opened={materialOpen}
        title={editingMaterial === null ? 'Add Material' : 'Edit Material'}
        submitLabel={editingMaterial === null ? 'Add' : 'Save'}
        schema={materialLineInput}
        initialValues={
          (editingMaterial !== null && materials[editingMaterial]) || {
            name: '',
            unitPrice: 0,
            quantity: 0,
            optional: false,
            taxable: materialsTaxable,
          }
        }
        fields={[
          { name: 'name', label: 'Name', type: 'text' },
          { name: 'unitPrice', label: 'Unit Price', type: 'number', prefix: '$', step: 1 },
          { name: 'quantity', label: 'Quantity', type: 'number', step: 1 },
          OPTIONAL_FIELD,
          TAXABLE_FIELD,
        ]}
        onSubmit={(line) => {
          setMaterials((list) =>
            editingMaterial === null ? [...list, line] : list.map((old, i) => (i === editingMaterial ? line : old)),
          );
          clearLineError();
        }}
        onClose={materialDialog.close}
      />
      <FormModal
        opened={laborOpen}
        title={editingLabor === null ? 'Add Labor' : 'Edit Labor'}
        submitLabel={editingLabor === null ? 'Add' : 'Save'}
        schema={laborLineInput}
        initialValues={
          (editingLabor !== null && labor[editingLabor]) || {
            description: '',
            hourlyRate: 0,
            hours: 0,
            optional: false,
            taxable: laborTaxable,
          }
        }
        fields={[
          {
            name: 'description',
            label: 'Description',
            type: 'text',
            optional: true,
            placeholder: 'e.g. Rehang the gate',
          },
          { name: 'hourlyRate', label: 'Hourly Rate', type: 'number', prefix: '$', step: 5 },
          { name: 'hours', label: 'Hours', type: 'number', step: 0.5 },
          OPTIONAL_FIELD,
          TAXABLE_FIELD,
        ]}
        onSubmit={(line) => {
          setLabor((list) =>
            editingLabor === null ? [...list, line] : list.map((old, i) => (i === editingLabor ? line : old)),
          );
          clearLineError();
        }}
        onClose={laborDialog.close}
      />
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
