import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Image,
  List,
  Loader,
  NumberInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheck, IconFileTypePdf, IconSquare, IconTrash } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useDebouncedCallback } from '@mantine/hooks';
import { formatDollars } from '#shared/money';
import { formatMinutes, JOB_PHOTO_STAGES, type JobRecordView } from '#shared/schemas/job-records';
import { formatDateTime } from '../../../components/date-text';
import { ScrollTable } from '../../../components/scroll-table';
import { SectionCard } from '../../../components/section-card';
import { toast } from '../../../lib/toast';
import { useOfficeMaterial, useOfficeRecord } from '../api/record';

type Material = JobRecordView['materials'][number];

/** How long typing may pause before a price is saved without leaving the field. */
const PRICE_SAVE_DELAY_MS = 700;

/**
 * One material's row: the office sets its price (what the invoice will charge). A typed price is saved
 * when typing pauses and when the field is left, so it counts without a button to remember.
 */
function MaterialRow({ jobId, material }: { jobId: string; material: Material }) {
  const { put, remove } = useOfficeMaterial(jobId);
  const [price, setPrice] = useState<number | string>(material.unitPrice ?? '');
  const typed = price === '' ? null : Number(price);
  const changed = typed !== material.unitPrice && (typed === null || Number.isFinite(typed));
  const saved = useRef<number | null>(material.unitPrice);
  const save = () => {
    if (!changed || saved.current === typed) return;
    saved.current = typed;
    put.mutate(
      { id: material._id, body: { name: material.name, quantity: material.quantity, unitPrice: typed } },
      {
        onSuccess: () => toast.success(`Saved the price of ${material.name}`),
        onError: (e) => {
          saved.current = material.unitPrice;
          toast.error(e.message);
        },
      },
    );
  };
  const saveLater = useDebouncedCallback(save, { delay: PRICE_SAVE_DELAY_MS, flushOnUnmount: true });
  return (
    <Table.Tr>
      <Table.Td>{material.name}</Table.Td>
      <Table.Td>{material.quantity}</Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <NumberInput
            aria-label={`Unit price of ${material.name}`}
            prefix="$"
            placeholder="Not priced"
            value={price}
            onChange={(value) => {
              setPrice(value);
              saveLater();
            }}
            onBlur={() => {
              saveLater.cancel();
              save();
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') save();
            }}
            min={0}
            decimalScale={2}
            w={120}
          />
          {put.isPending ? <Loader size="xs" aria-label="Saving the price" /> : null}
        </Group>
      </Table.Td>
      <Table.Td>{material.unitPrice === null ? '—' : formatDollars(material.unitPrice * material.quantity)}</Table.Td>
      <Table.Td>{material.addedBy ?? ''}</Table.Td>
      <Table.Td>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Remove ${material.name}`}
          loading={remove.isPending}
          onClick={() => remove.mutate(material._id, { onError: (e) => toast.error(e.message) })}
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Table.Td>
    </Table.Tr>
  );
}

function AddMaterial({ jobId }: { jobId: string }) {
  const { put } = useOfficeMaterial(jobId);
  const [name, setName] = useState('');
  const [quantity, setQuantity] = useState<number | string>(1);
  const [price, setPrice] = useState<number | string>('');
  const ok = name.trim() !== '' && typeof quantity === 'number' && quantity > 0;
  return (
    <Group gap="xs" align="flex-end">
      <TextInput label="Material" value={name} maxLength={200} onChange={(e) => setName(e.currentTarget.value)} />
      <NumberInput label="Quantity" value={quantity} onChange={setQuantity} min={0.01} decimalScale={2} w={100} />
      <NumberInput label="Unit price" prefix="$" value={price} onChange={setPrice} min={0} decimalScale={2} w={120} />
      <Button
        variant="light"
        disabled={!ok}
        loading={put.isPending}
        onClick={() =>
          put.mutate(
            {
              id: crypto.randomUUID(),
              body: { name: name.trim(), quantity: Number(quantity), unitPrice: price === '' ? null : Number(price) },
            },
            {
              onSuccess: () => {
                setName('');
                setQuantity(1);
                setPrice('');
              },
              onError: (e) => toast.error(e.message),
            },
          )
        }
      >
        Add material
      </Button>
    </Group>
  );
}

/** The crew's record on the office's job page: what was done, time, materials to price, photos, sign-off, report. */
export function OfficeRecord({ jobId }: { jobId: string }) {
  const record = useOfficeRecord(jobId);
  const r = record.data;
  if (!r)
    return (
      <SectionCard title="Work record">
        <Text size="sm" c={record.isError ? 'red' : 'dimmed'}>
          {record.isError ? 'The work record could not be loaded.' : 'Loading the work record…'}
        </Text>
      </SectionCard>
    );
  return (
    <Stack gap="md" mt="md">
      <SectionCard
        title="Work record"
        action={
          r.report ? (
            <Button
              component="a"
              href={r.report.url}
              target="_blank"
              rel="noreferrer"
              variant="light"
              size="xs"
              leftSection={<IconFileTypePdf size={16} />}
            >
              Job report (PDF)
            </Button>
          ) : null
        }
      >
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Stack gap="xs">
            <Text fw={600}>Checklist</Text>
            {r.checklist.length ? (
              <List spacing={4} size="sm" center aria-label="Checklist">
                {r.checklist.map((c) => (
                  <List.Item
                    key={c._id}
                    icon={
                      c.done ? <IconCheck size={16} color="var(--mantine-color-success-7)" /> : <IconSquare size={16} />
                    }
                  >
                    {c.text}
                    {c.done && c.doneBy ? (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        · {c.doneBy}
                      </Text>
                    ) : null}
                  </List.Item>
                ))}
              </List>
            ) : (
              <Text size="sm" c="dimmed">
                No checklist yet.
              </Text>
            )}
          </Stack>
          <Stack gap="xs">
            <Text fw={600}>Time</Text>
            {r.timeTotals.length ? (
              <List spacing={4} size="sm" aria-label="Time per worker">
                {r.timeTotals.map((t) => (
                  <List.Item key={t.worker._id}>
                    {t.worker.fullName}: {formatMinutes(t.minutes)}
                  </List.Item>
                ))}
              </List>
            ) : (
              <Text size="sm" c="dimmed">
                No time recorded.
              </Text>
            )}
            {r.time.some((t) => t.minutes === null) ? (
              <Text size="xs" c="dimmed">
                A timer is running.
              </Text>
            ) : null}
          </Stack>
        </SimpleGrid>
      </SectionCard>
      <SectionCard title="Materials used beyond the quote">
        <Stack gap="sm">
          {r.materials.length ? (
            <ScrollTable label="Materials used" minWidth={640}>
              <Table verticalSpacing={6}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Material</Table.Th>
                    <Table.Th>Quantity</Table.Th>
                    <Table.Th>Unit price</Table.Th>
                    <Table.Th>Amount</Table.Th>
                    <Table.Th>Added by</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Remove</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {r.materials.map((m) => (
                    <MaterialRow key={m._id} jobId={jobId} material={m} />
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollTable>
          ) : (
            <Text size="sm" c="dimmed">
              None recorded.
            </Text>
          )}
          <AddMaterial jobId={jobId} />
        </Stack>
      </SectionCard>
      <SectionCard title="Crew photos, notes and sign-off">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Stack gap="sm">
            {JOB_PHOTO_STAGES.map((stage) => {
              const photos = r.photos.filter((p) => p.stage === stage);
              return (
                <Stack gap={4} key={stage}>
                  <Text fw={600}>{stage === 'before' ? 'Before' : 'After'}</Text>
                  {photos.length ? (
                    <Group gap={6}>
                      {photos.map((p, i) => (
                        <Anchor key={p._id} href={p.url} target="_blank" rel="noreferrer">
                          <Image
                            src={p.thumbnailUrl}
                            alt={`${stage} photo ${i + 1}`}
                            w={80}
                            h={80}
                            radius="sm"
                            fit="cover"
                          />
                        </Anchor>
                      ))}
                    </Group>
                  ) : (
                    <Text size="sm" c="dimmed">
                      No {stage} photos.
                    </Text>
                  )}
                </Stack>
              );
            })}
          </Stack>
          <Stack gap="sm">
            <Text fw={600}>Notes from the crew</Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} c={r.notes ? undefined : 'dimmed'}>
              {r.notes || 'No notes.'}
            </Text>
            {r.clientNote ? (
              <>
                <Text fw={600}>Note to the client (on their report)</Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {r.clientNote}
                </Text>
              </>
            ) : null}
            <Text fw={600}>Sign-off</Text>
            {r.signature ? (
              <>
                <Image src={r.signature.imageUrl} alt={`Signature of ${r.signature.name}`} maw={260} bg="white" />
                <Text size="sm">
                  Signed by {r.signature.name} on {formatDateTime(r.signature.signedAt)}
                </Text>
              </>
            ) : (
              <Text size="sm" c="dimmed">
                Not signed yet.
              </Text>
            )}
          </Stack>
        </SimpleGrid>
      </SectionCard>
    </Stack>
  );
}
