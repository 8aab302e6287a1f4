import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PAGE_SIZE } from '#shared/constants';
import type { AddUserInput, UpdateUserInput, UserView } from '#shared/schemas/users';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-roots';
import type { FeedReset, SessionsEnded, UserDeleted } from '#shared/schemas/users';
import type { SessionList } from '#shared/schemas/auth';
import type { Done } from '#shared/schemas/errors';

type UserList = { users: UserView[]; totalPages: number; total: number };

export const userKeys = {
  all: queryRoots.users,
  list: (page: number, search: string) => ['users', 'list', { page, search }] as const,
};

export function useUsers(page: number, search: string) {
  const params = new URLSearchParams({ page: String(page), limit: String(PAGE_SIZE) });
  if (search) params.set('search', search);
  return useQuery({
    queryKey: userKeys.list(page, search),
    queryFn: () => api<UserList>('GET', `/users?${params}`),
    placeholderData: keepPreviousData,
  });
}

export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddUserInput | UpdateUserInput) =>
      '_id' in body
        ? api<UserView>('POST', '/users/updateuser', { body })
        : api<UserView>('POST', '/users/adduser', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** Ends every session of a user: each of their tokens stops working at once. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<SessionsEnded>('POST', `/users/${encodeURIComponent(id)}/end-sessions`),
    onSettled: (_ended, _error, id) => queryClient.invalidateQueries({ queryKey: sessionsKey(id) }),
  });
}

/** Ends a user's calendar feed address (a lost phone, a shared link): they get a new one when they next look. */
export function useResetCalendarFeed() {
  return useMutation({
    mutationFn: (id: string) => api<FeedReset>('POST', `/users/${encodeURIComponent(id)}/calendar-feed/reset`),
  });
}

/** Removes the row at once; puts the list back if the server refuses. */
export function useDeleteUser(listKey: ReturnType<typeof userKeys.list>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<UserDeleted>('DELETE', `/users/${encodeURIComponent(id)}`),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: listKey });
      const previous = queryClient.getQueryData<UserList>(listKey);
      if (previous)
        queryClient.setQueryData<UserList>(listKey, {
          ...previous,
          users: previous.users.filter((u) => u._id !== id),
          total: previous.total - 1,
        });
      return { previous };
    },
    onError: (_error, _id, context) => {
      if (context?.previous) queryClient.setQueryData(listKey, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

const sessionsKey = (id: string) => ['users', 'sessions', id] as const;

/** Where a user is signed in (an admin looking at them on Users). */
export function useUserSessions(id: string) {
  return useQuery({
    queryKey: sessionsKey(id),
    queryFn: () => api<SessionList>('GET', `/users/${encodeURIComponent(id)}/sessions`),
  });
}

/** Signs out one of a user's sessions; the list is read again either way (it may have ended already). */
export function useEndUserSession(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) =>
      api<Done>('DELETE', `/users/${encodeURIComponent(id)}/sessions/${encodeURIComponent(sessionId)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey(id) }),
  });
}
