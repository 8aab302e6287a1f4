import { Anchor, Button, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { messages } from '#shared/messages';
import { paths } from '#shared/paths';
import type { WindowView } from '#shared/schemas/booking';
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

/** The estimate visit's windows: fetched and drawn once the page is in use (issue 31). */
const EstimatePicker = lazy(() => import('../components/estimate-picker'));

export default function GetAQuotePage() {
  const navigate = useNavigate();
  const create = useCreateQuoteRequest();
  const [photos, setPhotos] = useState<File[]>([]);
  const [photoError, setPhotoError] = useState<string>();
  const [preparingPhotos, setPreparingPhotos] = useState(false);
  // The estimate visit's window, if the visitor picks one; a 409's fresh windows; why a pick was refused.
  const [estimate, setEstimate] = useState<WindowView | null>(null);
  const [freshWindows, setFreshWindows] = useState<WindowView[] | null>(null);
  const [estimateProblem, setEstimateProblem] = useState<string | null>(null);
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
      const body = quoteRequestFromForm(values, images);
      await create.mutateAsync(estimate ? { ...body, estimate: { date: estimate.date, start: estimate.start } } : body);
      form.reset(empty);
      setPhotos([]);
      navigate(paths.getAQuoteSuccess);
    } catch (error) {
      // The window went first, or cannot be booked here: the form stays as it is, the picker says why.
      if (hasErrorCode(error, 'WINDOW_TAKEN', 'OUTSIDE_AREA', 'BOOKING_OFF')) {
        if (hasErrorCode(error, 'WINDOW_TAKEN')) setFreshWindows((error.body as { windows: WindowView[] }).windows);
        setEstimate(null);
        setEstimateProblem(error.message);
        document.getElementById('estimate-visit')?.scrollIntoView({ block: 'center' });
        return;
      }
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
              {hydrated ? (
                <Suspense fallback={null}>
                  <EstimatePicker
                    picked={estimate}
                    onPick={(w) => {
                      setEstimate(w);
                      setEstimateProblem(null);
                    }}
                    fresh={freshWindows}
                    problem={estimateProblem}
                    disabled={busy}
                  />
                </Suspense>
              ) : null}
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
