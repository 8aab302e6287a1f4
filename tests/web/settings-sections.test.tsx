// @vitest-environment happy-dom
import { zodResolver } from '@hookform/resolvers/zod';
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { settingsInput, type SettingsInput } from '#shared/schemas/settings';
import { CrewSection } from '../../src/web/features/settings/components/crew-section';
import { HowClientsPaySection } from '../../src/web/features/settings/components/how-clients-pay-section';
import type { SettingsFormValues } from '../../src/web/features/settings/components/settings-form';
import { standInForFontLoading } from './support/render';

afterEach(cleanup);

beforeAll(standInForFontLoading);

const saved: SettingsInput = {
  businessName: 'Acme Handyman',
  businessEmail: 'office@acme.test',
  businessPhone: '(916) 555-0100',
  businessAddress: '',
  licenseNumber: '',
  serviceAreaHeadline: 'Sacramento',
  serviceArea: ['Sacramento'],
  taxRatePercent: 8.75,
  quoteValidityDays: 30,
  quoteReminderDays: [3, 7],
  ownerEmail: 'owner@acme.test',
  timeZone: 'America/Los_Angeles',
  invoiceReminderDays: [7, 14],
  materialsTaxable: true,
  laborTaxable: false,
  crewSeesPrices: false,
  materialPriceList: [{ name: 'Gate hinge', unitPrice: 12.5, taxable: true }],
  backupsToKeep: 14,
  howClientsPay: { checkPayee: '', checkAddress: '', bankTransfer: '', cardByPhone: false, cardPhone: '' },
};

/** The section inside a Settings form of its own, as the page holds it: the schema's resolver, one Save. */
function InForm({ onSave, children }: { onSave: (values: SettingsInput) => void; children: ReactNode }) {
  const form = useForm<SettingsFormValues, unknown, SettingsInput>({
    resolver: zodResolver(settingsInput),
    defaultValues: saved,
  });
  return (
    <MantineProvider>
      <FormProvider {...form}>
        <form onSubmit={form.handleSubmit(onSave)} noValidate aria-label="Settings">
          {children}
          <button type="submit">Save Settings</button>
        </form>
      </FormProvider>
    </MantineProvider>
  );
}

const nameField = (n: number) => screen.getByRole('textbox', { name: `Material ${n} name` }) as HTMLInputElement;
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save Settings' }));

describe('Settings → Crew', () => {
  it('adds, fills and removes materials, and saves the list as typed', async () => {
    const onSave = vi.fn();
    render(
      <InForm onSave={onSave}>
        <CrewSection />
      </InForm>,
    );
    expect(nameField(1).value).toBe('Gate hinge');
    expect(screen.queryByRole('textbox', { name: 'Material 2 name' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Add a material' }));
    fireEvent.change(nameField(2), { target: { value: 'Deck screws (box)' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Material 2 price' }), { target: { value: '$9.99' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Material 2 taxed' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'The crew sees prices' }));
    save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toMatchObject({
      crewSeesPrices: true,
      materialPriceList: [
        { name: 'Gate hinge', unitPrice: 12.5, taxable: true },
        { name: 'Deck screws (box)', unitPrice: 9.99, taxable: false },
      ],
    });

    fireEvent.click(screen.getByRole('button', { name: 'Remove material 1' }));
    expect(nameField(1).value).toBe('Deck screws (box)');
    save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(2));
    expect(onSave.mock.calls[1]![0].materialPriceList).toEqual([
      { name: 'Deck screws (box)', unitPrice: 9.99, taxable: false },
    ]);
  });

  it("shows the schema's messages on the list and does not save", async () => {
    const onSave = vi.fn();
    render(
      <InForm onSave={onSave}>
        <CrewSection />
      </InForm>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add a material' }));
    fireEvent.change(nameField(2), { target: { value: 'gate HINGE' } });
    save();
    expect(await screen.findByText('Each material in the price list needs its own name')).toBeTruthy();

    fireEvent.change(nameField(2), { target: { value: '' } });
    save();
    expect(await screen.findByText('Material name is required')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
  });
});

describe('Settings → How clients pay', () => {
  it('asks for a card phone only when cards are taken, and checks it', async () => {
    const onSave = vi.fn();
    render(
      <InForm onSave={onSave}>
        <HowClientsPaySection />
      </InForm>,
    );
    expect(screen.getByText(/with none, they ask the client to call \(916\) 555-0100\./)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Phone for card payments' })).toBeNull();

    fireEvent.click(screen.getByRole('checkbox', { name: 'Clients may pay by card over the phone' }));
    const phone = await screen.findByRole('textbox', { name: 'Phone for card payments' });
    fireEvent.change(phone, { target: { value: 'call us' } });
    save();
    expect(await screen.findByText('Enter a phone number, e.g. (916) 555-0142')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();

    fireEvent.change(phone, { target: { value: '916-555-0199' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Zelle or bank transfer details' }), {
      target: { value: 'Zelle to pay@acme.test' },
    });
    save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0].howClientsPay).toEqual({
      checkPayee: '',
      checkAddress: '',
      bankTransfer: 'Zelle to pay@acme.test',
      cardByPhone: true,
      cardPhone: '916-555-0199',
    });
  });
});
