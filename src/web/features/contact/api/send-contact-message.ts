import { useMutation } from '@tanstack/react-query';
import type { ContactInput } from '#shared/schemas/contact';
import { publicApi } from '../../../lib/api-client';
import type { ContactSent } from '#shared/schemas/contact';

export function sendContactMessage(body: ContactInput) {
  return publicApi<ContactSent>('POST', '/contact', { body });
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
