import { useFormContext } from 'react-hook-form';
import type { z } from 'zod';
import type { settingsInput, SettingsInput, SettingsView } from '#shared/schemas/settings';

/** The Settings form's values as typed; its schema turns them into a `SettingsInput`. */
export type SettingsFormValues = z.input<typeof settingsInput>;

/** The one Settings form, as each of its sections reaches it (they sit inside its `FormProvider`). */
export const useSettingsForm = () => useFormContext<SettingsFormValues, unknown, SettingsInput>();

/** What the form edits of the saved settings (the logo and the time of the change are not its). */
export const valuesOf = ({ logoUrl: _logo, updatedAt: _at, ...values }: SettingsView): SettingsInput => values;
