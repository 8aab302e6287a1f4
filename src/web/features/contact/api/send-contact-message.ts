import { useMutation } from '@tanstack/react-query';
import type { ContactInput } from '../../../../shared/schemas/contact';
import { publicApi } from '../../../lib/api-client';

export function sendContactMessage(body: ContactInput) {
  return publicApi<{ contactMessage: { _id: string } }>('POST', '/contact', { body });
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}
