import { Anchor, Button, Text } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { messages } from '#shared/messages';
import { paths } from '#shared/paths';
import type { QuoteRequestForm, QuoteRequestFormValues } from '#shared/schemas/quote-request';
import { FormPage } from '../../../components/form-page';
import { hasErrorCode } from '../../../lib/api-client';
import { readAsDataUrl } from '../../../lib/files';
import { toast } from '../../../lib/toast';
import { useCreateQuoteRequest } from '../api/create-quote-request';
import { PhotoPicker } from '../components/photo-picker';
import { emptyRequestForm, RequestFields } from '../components/request-fields';
import { lazyZodResolver } from '../../../lib/lazy-zod-resolver';
import { businessToday } from '../../../lib/business-today';
import { WhenHydrated } from '../../../lib/use-hydrated';

/** The form's schema and its mapping to the API's body: loaded when first needed (lazy-zod-resolver.ts). */
const loadSchemas = () => import('#shared/schemas/quote-request');

const empty = emptyRequestForm;

export default function GetAQuotePage() {
  const navigate = useNavigate();
  const create = useCreateQuoteRequest();
  const [photos, setPhotos] = useState<File[]>([]);
  const [photoError, setPhotoError] = useState<string>();
  const [preparingPhotos, setPreparingPhotos] = useState(false);
  // The picker starts at today where the business is (the Settings' zone), as the server's check does.
  const [today] = useState(() => businessToday());
  const form = useForm<QuoteRequestForm, unknown, QuoteRequestFormValues>({
    resolver: lazyZodResolver(async () => (await loadSchemas()).quoteRequestFormIn(today)),
    defaultValues: empty,
  });
  const { errors, isSubmitting } = form.formState;
  const busy = isSubmitting || create.isPending;
  // Fields lock only while sending: during the check a refused field must stay focusable, since the
  // form moves the focus (and the screen) to the first one.
  const sending = create.isPending;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const [images, { quoteRequestFromForm }] = await Promise.all([
        Promise.all(photos.map(readAsDataUrl)),
        loadSchemas(),
      ]);
      await create.mutateAsync(quoteRequestFromForm(values, images));
      form.reset(empty);
      setPhotos([]);
      navigate(paths.getAQuoteSuccess);
    } catch (error) {
      toast.error(hasErrorCode(error, 'RATE_LIMITED') ? messages.tooManyAttempts : messages.quoteSubmitError);
    }
  });

  const field = (name: keyof QuoteRequestForm) => ({
    ...form.register(name),
    error: errors[name]?.message,
    disabled: sending,
  });

  return (
    <FormPage
      title="Get a Quote"
      intro={
        <>
          Tell us about the job and add a few photos: we will answer with a free estimate.{' '}
          <Text span>
            Already have a Quote?{' '}
            <Anchor component={Link} to={paths.quoteRequestStatus} fw={600}>
              Check Status
            </Anchor>
          </Text>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate aria-label="Quote request">
        <RequestFields field={field} today={today} />
        <WhenHydrated>
          {(hydrated) => (
            <>
              <div style={{ marginTop: 'var(--mantine-spacing-md)' }}>
                <PhotoPicker
                  files={photos}
                  error={photoError}
                  disabled={busy || !hydrated}
                  onPreparing={setPreparingPhotos}
                  onChange={(files, error) => {
                    setPhotos(files);
                    setPhotoError(error);
                  }}
                />
              </div>
              <Button
                type="submit"
                mt="xl"
                size="md"
                fullWidth
                disabled={busy || !hydrated || preparingPhotos}
                color="accent"
              >
                {busy ? 'Sending' : 'Send'}
              </Button>
            </>
          )}
        </WhenHydrated>
      </form>
    </FormPage>
  );
}
