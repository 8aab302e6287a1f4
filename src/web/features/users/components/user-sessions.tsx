import { Divider, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { SessionView } from '#shared/schemas/auth';
import type { UserView } from '#shared/schemas/users';
import { SessionList } from '../../../components/session-list';
import { useSiteConfig } from '../../../lib/site-config';
import { toast } from '../../../lib/toast';
import { useEndUserSession, useUserSessions } from '../api/users';

/** In a user's dialog: where they are signed in, each session signed out on its own (a phone left signed in). */
export function UserSessions({ user }: { user: UserView }) {
  const sessions = useUserSessions(user._id);
  const end = useEndUserSession(user._id);
  const { timeZone } = useSiteConfig();
  const [ending, setEnding] = useState<string | null>(null);

  const signOut = async (session: SessionView) => {
    setEnding(session._id);
    try {
      await end.mutateAsync(session._id);
      toast.success(`${user.username} is signed out of ${session.device}`);
    } catch {
      toast.error('That session could not be signed out. Please try again');
    } finally {
      setEnding(null);
    }
  };

  return (
    <Stack gap="xs">
      <Divider mt="xs" />
      <Text fw={600} size="sm">
        Where {user.username} is signed in
      </Text>
      <SessionList
        sessions={sessions.data?.sessions}
        error={sessions.error}
        timeZone={timeZone}
        ending={ending}
        currentLabel="You, here"
        onEnd={(session) => void signOut(session)}
      />
    </Stack>
  );
}
