// @vitest-environment happy-dom
import { zodResolver } from '@hookform/resolvers/zod';
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import userEvent from '@testing-library/user-event';
import { FormProvider, useForm } from 'react-hook-form';
import { MemoryRouter } from 'react-router';
import { paths } from '#shared/paths';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { settingsInput, type SettingsInput } from '#shared/schemas/settings';
import { CrewSection } from '../../src/web/features/settings/components/crew-section';
import { HowClientsPaySection } from '../../src/web/features/settings/components/how-clients-pay-section';
import { VisitsSection } from '../../src/web/features/settings/components/visits-section';
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
  crewLeadsSeePrices: false,
  webhooksAllowPrivate: false,
  requireTwoStep: false,
  backupsToKeep: 14,
  arrivalWindowMinutes: 120,
  howClientsPay: { checkPayee: '', checkAddress: '', bankTransfer: '', cardByPhone: false, cardPhone: '' },
};

/** The section inside a Settings form of its own, as the page holds it: the schema's resolver, one Save. */
function InForm({ onSave, children }: { onSave: (values: SettingsInput) => void; children: ReactNode }) {
  const form = useForm<SettingsFormValues, unknown, SettingsInput>({
    resolver: zodResolver(settingsInput),
    defaultValues: saved,
  });
  return (
    <MantineProvider env="test">
      <FormProvider {...form}>
        <form onSubmit={form.handleSubmit(onSave)} noValidate aria-label="Settings">
          {children}
          <button type="submit">Save Settings</button>
        </form>
      </FormProvider>
    </MantineProvider>
  );
}

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save Settings' }));

describe('Settings → Crew', () => {
  const renderCrewSection = () => {
    const onSave = vi.fn();
    render(
      <MemoryRouter>
        <InForm onSave={onSave}>
          <CrewSection />
        </InForm>
      </MemoryRouter>,
    );
    return onSave;
  };

  it('saves whether the crew sees prices and sends the owner to the price book for the materials', async () => {
    const onSave = renderCrewSection();
    expect(screen.queryByRole('textbox', { name: 'Material 1 name' })).toBeNull();
    expect(screen.getByRole('link', { name: 'price book' }).getAttribute('href')).toBe(paths.admin.priceBook);
    fireEvent.click(screen.getByRole('checkbox', { name: 'The crew sees prices' }));
    save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toMatchObject({ crewSeesPrices: true });
    expect(onSave.mock.calls[0]![0]).not.toHaveProperty('materialPriceList');
  });

  it('lets Crew leads alone see prices (issue 33)', async () => {
    const onSave = renderCrewSection();
    expect(
      screen.getByText('Crew leads see and give prices on their jobs even when the rest of the crew does not'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Crew leads see prices' }));
    save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toMatchObject({ crewSeesPrices: false, crewLeadsSeePrices: true });
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

describe('Settings → Visits', () => {
  it('shows the arrival window as clients will read it and saves the choice', async () => {
    const onSave = vi.fn();
    render(
      <InForm onSave={onSave}>
        <VisitsSection />
      </InForm>,
    );
    const example = screen.getByTestId('arrival-example');
    expect(example.textContent).toMatch(/reads: “\w{3}, \w{3} \d{1,2}, arriving 9:00 AM – 11:00 AM”$/);
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Arrival window clients see' }));
    await user.click(await screen.findByRole('option', { name: "The visit's own start and end" }));
    await waitFor(() => expect(example.textContent).toMatch(/reads: “\w{3}, \w{3} \d{1,2}, 9:00 AM – 12:00 PM”$/));
    save();
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toMatchObject({ arrivalWindowMinutes: 0 });
  });
});
