import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BookingSettingsInput, BookingSettingsView } from '#shared/schemas/booking';
import type { UserView } from '#shared/schemas/users';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';

const key = [...queryRoots.settings, 'booking'];

/** Settings → Online booking (decision 046): the windows clients pick from, and their own changes. */
export function useBookingSettings() {
  return useQuery({ queryKey: key, queryFn: () => api<BookingSettingsView>('GET', '/settings/booking') });
}

export function useSaveBookingSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BookingSettingsInput) => api<BookingSettingsView>('PUT', '/settings/booking', { body }),
    onSuccess: (view) => queryClient.setQueryData(key, view),
  });
}

/** The crew who may take estimate visits, by name. */
export function useEstimateWorkers() {
  return useQuery({
    queryKey: [...queryRoots.settings, 'booking', 'workers'],
    queryFn: () => api<UserView[]>('GET', '/users/search-employees?fullName='),
  });
}
