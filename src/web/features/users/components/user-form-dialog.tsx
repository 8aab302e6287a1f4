import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Group,
  Modal,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useLayoutEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { WORKER_TAGS } from '#shared/constants';
import { areaOf, TEAM_ROLE_DESCRIPTIONS, TEAM_ROLE_LABELS, TEAM_ROLES, type TeamRole } from '#shared/roles';
import { messages } from '#shared/messages';
import { addUserInput, updateUserInput, type UserView } from '#shared/schemas/users';
import { UserSessions } from './user-sessions';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { hasErrorCode } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useEndSessions, useResetCalendarFeed, useSaveUser } from '../api/users';

// One form for both: the password is required on add, optional on edit (the shared schemas decide).
type FormValues = z.input<typeof updateUserInput>;

const blank: FormValues = {
  _id: '',
  username: '',
  password: '',
  fullName: '',
  email: '',
  phone: '',
  role: 'employee',
  teamRole: 'crew',
  tags: [],
};

/** The four roles with what each may do, for the Role field (decision 042). */
const roleOptions = TEAM_ROLES.map((value) => ({ value, label: TEAM_ROLE_LABELS[value] }));

export function UserFormDialog({
  opened,
  user,
  onClose,
}: {
  opened: boolean;
  user: UserView | null;
  onClose: () => void;
}) {
  const editing = Boolean(user);
  const save = useSaveUser();
  const endSessions = useEndSessions();
  const resetFeed = useResetCalendarFeed();
  const [confirmingReset, setConfirmingReset] = useState(false);
  const form = useForm<FormValues>({
    resolver: zodResolver(editing ? updateUserInput : addUserInput) as never,
    defaultValues: blank,
  });
  const { errors, isSubmitting } = form.formState;

  // In the commit that opens it: a passive effect could wipe what was typed at once (see FormModal).
  useLayoutEffect(() => {
    if (opened) form.reset(user ? { ...user, password: '' } : blank);
  }, [opened, user, form]);

  const confirmResetFeed = () => {
    if (!user) return;
    resetFeed.mutate(user._id, {
      onSuccess: () => {
        setConfirmingReset(false);
        toast.success(`${user.username}'s calendar feed address is reset: the old one stopped working`);
      },
      onError: () => toast.error('Could not reset the calendar feed. Please try again'),
    });
  };

  const onSubmit = form.handleSubmit(async (values) => {
    const { _id, ...rest } = values;
    try {
      await save.mutateAsync(editing ? { ...rest, _id: _id! } : (rest as z.input<typeof addUserInput>));
      toast.success(editing ? messages.userUpdated : messages.userAdded);
      onClose();
    } catch (error) {
      if (hasErrorCode(error, 'USERNAME_TAKEN')) toast.error(messages.usernameTaken);
      else if (hasErrorCode(error, 'WEAK_PASSWORD')) {
        form.setError('password', { type: 'server', message: error.message.replace(/^password: /, '') });
      } else if (hasErrorCode(error, 'VALIDATION_FAILED', 'LAST_OWNER', 'OWN_ACCOUNT')) toast.error(error.message);
      else toast.error(editing ? messages.userUpdateError : messages.userAddError);
    }
  });
  const busy = isSubmitting || save.isPending;
  // Fields lock only while saving (not during the check, so the first refused one takes the focus);
  // a password the server refused takes the focus once they are back.
  const saving = save.isPending;
  const serverPasswordError = errors.password?.type === 'server';
  useEffect(() => {
    if (!busy && serverPasswordError) form.setFocus('password');
  }, [busy, serverPasswordError, form]);

  return (
    <Modal
      opened={opened}
      onClose={busy ? () => {} : onClose}
      title={editing ? 'Edit User' : 'Add User'}
      centered
      radius="lg"
      size="lg"
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Username"
              withAsterisk
              autoComplete="off"
              {...form.register('username')}
              error={errors.username?.message}
              disabled={saving}
            />
            <PasswordInput
              label="Password"
              withAsterisk={!editing}
              description={
                editing ? 'Leave empty to keep the current password' : 'At least 8 characters, hard to guess'
              }
              autoComplete="new-password"
              {...form.register('password')}
              error={errors.password?.message}
              disabled={saving}
            />
            <TextInput
              label="Full Name"
              autoComplete="off"
              {...form.register('fullName')}
              error={errors.fullName?.message}
              disabled={saving}
            />
            <TextInput
              label="Email"
              type="email"
              autoComplete="off"
              {...form.register('email')}
              error={errors.email?.message}
              disabled={saving}
            />
            <TextInput
              label="Phone"
              type="tel"
              autoComplete="off"
              {...form.register('phone')}
              error={errors.phone?.message}
              disabled={saving}
            />
            <Controller
              control={form.control}
              name="teamRole"
              render={({ field }) => (
                <Select
                  label="Role"
                  withAsterisk
                  placeholder="Select Role"
                  data={roleOptions}
                  description={field.value ? TEAM_ROLE_DESCRIPTIONS[field.value] : undefined}
                  value={field.value ?? null}
                  onChange={(v) => {
                    if (!v) return;
                    const teamRole = v as TeamRole;
                    field.onChange(teamRole);
                    // The spec's role follows: Owner and Office work in the back office.
                    form.setValue('role', areaOf(teamRole));
                  }}
                  error={errors.teamRole?.message ?? errors.role?.message}
                  disabled={saving}
                  allowDeselect={false}
                />
              )}
            />
          </SimpleGrid>
          <Controller
            control={form.control}
            name="tags"
            render={({ field }) => (
              <TagsInput
                label="Tags"
                description="The kinds of work this person does: pick one, or type your own and press Enter"
                placeholder="Pick or type a skill"
                data={[...WORKER_TAGS]}
                value={field.value ?? []}
                onChange={field.onChange}
                error={errors.tags?.message}
                maxLength={40}
                disabled={saving}
                clearable
              />
            )}
          />
          {user ? <UserSessions user={user} /> : null}
          <Group justify="space-between">
            {user ? (
              <Group gap={0}>
                <Button
                  variant="subtle"
                  color="red"
                  c="red.9"
                  loading={endSessions.isPending}
                  disabled={saving}
                  onClick={() =>
                    endSessions.mutate(user._id, {
                      onSuccess: ({ ended }) =>
                        toast.success(
                          `${user.username} is signed out everywhere (${ended} ${ended === 1 ? 'session' : 'sessions'} ended)`,
                        ),
                      onError: () => toast.error('Could not sign this user out. Please try again'),
                    })
                  }
                >
                  Sign out everywhere
                </Button>
                <Button
                  variant="subtle"
                  color="red"
                  c="red.9"
                  disabled={saving}
                  onClick={() => setConfirmingReset(true)}
                >
                  Reset calendar feed
                </Button>
              </Group>
            ) : (
              <span />
            )}
            <Group>
              <Button variant="default" onClick={onClose} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" loading={busy}>
                {editing ? 'Update' : 'Add'}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        opened={confirmingReset}
        title="Reset calendar feed"
        confirmLabel="Reset"
        confirmColor="red.9"
        loading={resetFeed.isPending}
        onConfirm={confirmResetFeed}
        onClose={() => setConfirmingReset(false)}
      >
        <Text>
          The calendar address {user?.username} subscribed to stops working at once, and the calendars that use it stop
          showing visits. They get a new address on their calendar page.
        </Text>
      </ConfirmDialog>
    </Modal>
  );
}
