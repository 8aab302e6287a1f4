import { Button, TextInput } from '@mantine/core';
import { PlainTextarea } from '../../../components/plain-textarea';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { messages } from '#shared/messages';
import type { contactInput, ContactInput } from '#shared/schemas/contact';
import { FormPage } from '../../../components/form-page';
import { hasErrorCode } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useSendContactMessage } from '../api/send-contact-message';
import { lazyZodResolver } from '../../../lib/lazy-zod-resolver';
import { WhenHydrated } from '../../../lib/use-hydrated';
import layout from '../../../components/layout.module.css';

const empty: ContactInput = { firstName: '', lastName: '', phone: '', email: '', message: '' };

export default function ContactPage() {
  const send = useSendContactMessage();
  const form = useForm<ContactInput, unknown, z.output<typeof contactInput>>({
    resolver: lazyZodResolver(async () => (await import('#shared/schemas/contact')).contactInput),
    defaultValues: empty,
  });
  const { errors, isSubmitting } = form.formState;
  const busy = isSubmitting || send.isPending;
  // Fields lock only while sending, so the first refused one can take the focus (get-a-quote-page.tsx).
  const sending = send.isPending;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await send.mutateAsync(values);
      toast.success(messages.contactSuccess);
      form.reset(empty);
    } catch (error) {
      toast.error(hasErrorCode(error, 'RATE_LIMITED') ? messages.tooManyAttempts : messages.contactError);
    }
  });

  const field = (name: keyof ContactInput) => ({
    ...form.register(name),
    error: errors[name]?.message,
    disabled: sending,
  });

  return (
    <FormPage
      title="Contact"
      intro="Questions about a repair, a quote or a job? Send us a message and we will be in touch soon."
    >
      <form onSubmit={onSubmit} noValidate aria-label="Contact">
        <div className={`${layout.grid} ${layout.cols2}`}>
          <TextInput label="First Name" type="text" withAsterisk autoComplete="given-name" {...field('firstName')} />
          <TextInput label="Last Name" type="text" withAsterisk autoComplete="family-name" {...field('lastName')} />
          <TextInput label="Phone" type="tel" autoComplete="tel" {...field('phone')} />
          <TextInput label="Email" withAsterisk type="email" autoComplete="email" {...field('email')} />
        </div>
        <PlainTextarea mt="md" label="Message" withAsterisk rows={6} {...field('message')} />
        <WhenHydrated>
          {(hydrated) => (
            <Button type="submit" mt="xl" size="md" fullWidth disabled={busy || !hydrated} color="accent">
              {busy ? 'Sending' : 'Send'}
            </Button>
          )}
        </WhenHydrated>
      </form>
    </FormPage>
  );
}
