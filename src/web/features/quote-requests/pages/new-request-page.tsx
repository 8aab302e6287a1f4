import { Button, Checkbox, Group, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { paths, QUOTE_BUILDER_ID } from '#shared/paths';
import {
  quoteRequestFromForm,
  type QuoteRequestForm,
  type QuoteRequestFormValues,
} from '#shared/schemas/quote-request';
import { staffRequestFormIn } from '#shared/schemas/staff-quote-requests';
import { PageHeader } from '../../../components/page-header';
import { ServiceAddressSelect } from '../../../components/service-address-select';
import { ApiError } from '../../../lib/api-client';
import { readAsDataUrl } from '../../../lib/files';
import { lazyZodResolver } from '../../../lib/lazy-zod-resolver';
import { businessToday } from '../../../lib/business-today';
import { toast } from '../../../lib/toast';
import { useClientForRequest, useEnterQuoteRequest } from '../api/staff';
import { PhotoPicker } from '../components/photo-picker';
import { emptyRequestForm, RequestFields } from '../components/request-fields';

const empty = emptyRequestForm;

/** A request for a client who phoned: the public form's checks, photos optional, the client's e-mail optional. */
export default function NewQuoteRequestPage() {
  const navigate = useNavigate();
  const enter = useEnterQuoteRequest();
  const [photos, setPhotos] = useState<File[]>([]);
  const [photoError, setPhotoError] = useState<string>();
  const [preparing, setPreparing] = useState(false);
  const [emailClient, setEmailClient] = useState(false);
  // Today where the business is (the Settings' zone), as the server's check has it.
  const [today] = useState(() => businessToday());
  const form = useForm<QuoteRequestForm, unknown, QuoteRequestFormValues>({
    resolver: lazyZodResolver(async () => staffRequestFormIn(today)),
    defaultValues: empty,
  });
  const { errors } = form.formState;
  const sending = enter.isPending;
  // Entered from a client's page: that client, at the service address the office picks (decision 037).
  const [params] = useSearchParams();
  const clientId = params.get('client');
  const client = useClientForRequest(clientId);
  const [addressId, setAddressId] = useState<string | null>(params.get('address'));
  const known = client.data;
  useEffect(() => {
    if (!known) return;
    const [first = '', ...rest] = known.name.split(' ');
    form.setValue('firstName', first);
    form.setValue('lastName', rest.join(' ') || first);
    form.setValue('email', known.email);
    form.setValue('phone', known.phone);
  }, [known, form]);
  const place = known?.addresses.find((a) => a._id === addressId) ?? known?.addresses[0];
  useEffect(() => {
    if (!place) return;
    for (const key of ['street', 'city', 'state', 'zip'] as const) form.setValue(key, place[key]);
  }, [place, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const images = await Promise.all(photos.map(readAsDataUrl));
      const { quoteRequest } = await enter.mutateAsync({
        ...quoteRequestFromForm(values, images),
        emailClient,
        ...(known && place ? { clientId: known._id, serviceAddressId: place._id } : {}),
      });
      toast.success(`Request ${quoteRequest.quoteNumber} entered: build its quote`);
      // Entered by the office, it is accepted already: straight to its Quote Builder.
      navigate(`${paths.admin.quoteRequest(quoteRequest._id)}#${QUOTE_BUILDER_ID}`);
    } catch (error) {
      toast.error(error instanceof ApiError && error.status === 400 ? error.message : 'The request could not be saved');
    }
  });

  // The chosen service address is the client's as stored: its fields are read, not typed.
  const fromPlace = (name: keyof QuoteRequestForm) =>
    Boolean(place) && (name === 'street' || name === 'city' || name === 'state' || name === 'zip');
  const field = (name: keyof QuoteRequestForm) => ({
    ...form.register(name),
    error: errors[name]?.message,
    disabled: sending,
    ...(fromPlace(name) ? { readOnly: true } : {}),
  });

  return (
    <>
      <PageHeader
        title="Enter a phoned-in request"
        back={{ to: paths.admin.quoteRequests, label: 'Back to Quote Requests' }}
      />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} maw={900}>
        <form onSubmit={onSubmit} noValidate aria-label="Phoned-in request">
          <Stack gap="md">
            {known ? (
              <Paper withBorder radius="md" p="md" bg="blue.0" role="note">
                <Stack gap="xs">
                  <Text fw={700}>For {known.companyName || known.name}</Text>
                  <Text size="sm">Choose which of their service addresses the work is at.</Text>
                  <ServiceAddressSelect
                    places={known.addresses}
                    value={place?._id ?? null}
                    onChange={setAddressId}
                    disabled={sending}
                  />
                </Stack>
              </Paper>
            ) : (
              <Text c="dimmed" size="sm">
                The client is found by their e-mail, or by their phone when they have no e-mail (or added to Clients).
                Photos are optional.
              </Text>
            )}
            <RequestFields field={field} today={today} emailOptional />
            <PhotoPicker
              files={photos}
              error={photoError}
              disabled={sending}
              onPreparing={setPreparing}
              onChange={(files, error) => {
                setPhotos(files);
                setPhotoError(error);
              }}
            />
            <Checkbox
              label="E-mail the client a confirmation with their request number"
              checked={emailClient}
              onChange={(e) => setEmailClient(e.currentTarget.checked)}
              disabled={sending}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={sending} disabled={preparing}>
                Save request
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </>
  );
}
