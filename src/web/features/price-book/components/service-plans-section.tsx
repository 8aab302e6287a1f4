import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { formatClock } from '#shared/dates';
import {
  PLAN_FREQUENCIES,
  planPriceWords,
  servicePlanInput,
  type ServicePlanInput,
  type ServicePlanView,
} from '#shared/schemas/service-plans';
import { ListTable } from '../../../components/list-table';
import { PriceAndTax } from '../../../components/price-and-tax';
import { TimeRange } from '../../../components/time-range';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useServicePlanChanges, useServicePlans } from '../api/service-plans';

const frequencyOf = (n: number) => PLAN_FREQUENCIES.find((f) => f.visitsPerYear === n)?.label ?? `${n} a year`;

/**
 * The service plans the business sells (issue 31), under the price book: offered to a client from their
 * page, signed by the client; a change holds for offers made after it.
 */
export function ServicePlansSection() {
  const plans = useServicePlans();
  const { archive } = useServicePlanChanges();
  const [editing, setEditing] = useState<ServicePlanView | 'new' | null>(null);
  return (
    <>
      <Group justify="space-between" mt="xl" mb="xs">
        <Title order={2} size="h3" id="service-plans">
          Service plans
        </Title>
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing('new')}>
          New service plan
        </Button>
      </Group>
      <Text size="sm" c="dimmed" mb="md" maw={720}>
        Regular work sold as a plan (gutter care twice a year, monthly upkeep): offer one from a client’s page; they
        read and sign it from the e-mailed link, and its visits are booked and invoiced by themselves. A reminder goes
        to you and the client 30 days before it ends.
      </Text>
      <ListTable
        label="Service plans"
        columns={['Plan', 'How often', 'Price', 'Term', 'Edit', 'Offered']}
        actionColumns={2}
        rows={plans.data?.servicePlans}
        loading={plans.isPending}
        rowKey={(p) => p._id}
        empty="No service plans yet: add one to offer it to clients."
        renderRow={(p) => [
          <Stack key="n" gap={0}>
            <Group gap={6}>
              <Text fw={600}>{p.name}</Text>
              {p.archived ? (
                <Badge variant="light" color="gray" c="dark.7">
                  Not offered
                </Badge>
              ) : null}
            </Group>
            {p.included ? (
              <Text size="xs" c="dimmed" lineClamp={2}>
                {p.included}
              </Text>
            ) : null}
          </Stack>,
          `${frequencyOf(p.visitsPerYear)}, ${formatClock(p.start)} – ${formatClock(p.end)}`,
          planPriceWords(p),
          `${p.termMonths} ${p.termMonths === 1 ? 'month' : 'months'}`,
          <Button key="e" size="xs" variant="default" aria-label={`Edit ${p.name}`} onClick={() => setEditing(p)}>
            Edit
          </Button>,
          <Button
            key="a"
            size="xs"
            variant={p.archived ? 'default' : 'outline'}
            color={p.archived ? undefined : 'red.9'}
            loading={archive.isPending && archive.variables?.id === p._id}
            onClick={() =>
              archive.mutate(
                { id: p._id, archived: !p.archived },
                {
                  onSuccess: () =>
                    toast.success(p.archived ? `${p.name} is offered again` : `${p.name} is no longer offered`),
                  onError: (e) => toast.error(e.message),
                },
              )
            }
          >
            {p.archived ? `Offer ${p.name} again` : `Stop offering ${p.name}`}
          </Button>,
        ]}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add a service plan' : 'Edit the service plan'}
        centered
        radius="lg"
      >
        {editing ? (
          <ServicePlanForm plan={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
        ) : null}
      </Modal>
    </>
  );
}

function ServicePlanForm({ plan, onDone }: { plan?: ServicePlanView; onDone: () => void }) {
  const { save } = useServicePlanChanges();
  const [values, setValues] = useState({
    name: plan?.name ?? '',
    included: plan?.included ?? '',
    visitsPerYear: String(plan?.visitsPerYear ?? 2),
    start: plan?.start ?? '09:00',
    end: plan?.end ?? '11:00',
    billing: plan?.billing ?? 'month',
    price: (plan?.price ?? '') as number | string,
    taxable: plan?.taxable ?? false,
    termMonths: (plan?.termMonths ?? 12) as number | string,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (changes: Partial<typeof values>) => {
    setValues({ ...values, ...changes });
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !(k in changes) && k !== 'form')));
  };
  const submit = async () => {
    const body: ServicePlanInput = {
      ...values,
      visitsPerYear: Number(values.visitsPerYear),
      billing: values.billing,
      price: values.price === '' ? Number.NaN : Number(values.price),
      termMonths: Number(values.termMonths),
    };
    const parsed = servicePlanInput.safeParse(body);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path.at(-1))] ??= issue.message;
      return setErrors(found);
    }
    try {
      await save.mutateAsync({ ...(plan ? { id: plan._id } : {}), body: parsed.data });
      toast.success(plan ? 'Service plan saved' : `${parsed.data.name} added: offer it from a client’s page`);
      onDone();
    } catch (error) {
      setErrors({ form: error instanceof ApiError ? error.message : 'The service plan could not be saved' });
    }
  };
  return (
    <Stack>
      <TextInput
        label="Name"
        withAsterisk
        placeholder="e.g. Gutter care"
        value={values.name}
        onChange={(e) => set({ name: e.currentTarget.value })}
        error={errors.name}
      />
      <Textarea
        label="What is included"
        description="As the client reads it on the plan they sign"
        autosize
        minRows={2}
        value={values.included}
        onChange={(e) => set({ included: e.currentTarget.value })}
        error={errors.included}
      />
      <Select
        label="How often"
        data={PLAN_FREQUENCIES.map((f) => ({ value: String(f.visitsPerYear), label: f.label }))}
        value={values.visitsPerYear}
        onChange={(v) => set({ visitsPerYear: v ?? '2' })}
        allowDeselect={false}
        error={errors.visitsPerYear}
      />
      <TimeRange start={values.start} end={values.end} onChange={(next) => set(next)} errors={errors} />
      <Radio.Group label="Billed" value={values.billing} onChange={(v) => set({ billing: v as 'visit' | 'month' })}>
        <Group mt={4}>
          <Radio value="month" label="Each month, on the 1st" />
          <Radio value="visit" label="Each visit, once it is over" />
        </Group>
      </Radio.Group>
      <PriceAndTax
        label={values.billing === 'month' ? 'Price per month' : 'Price per visit'}
        price={values.price}
        onPrice={(v) => set({ price: v })}
        error={errors.price}
        taxable={values.taxable}
        onTaxable={(taxable) => set({ taxable })}
      />
      <NumberInput
        label="Term (months)"
        description="How long one signing lasts"
        min={1}
        max={36}
        allowDecimal={false}
        w={180}
        value={values.termMonths}
        onChange={(v) => set({ termMonths: v })}
        error={errors.termMonths}
      />
      {errors.form ? (
        <Alert color="red" role="alert">
          {errors.form}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} loading={save.isPending}>
          {plan ? 'Save' : 'Add service plan'}
        </Button>
      </Group>
    </Stack>
  );
}
