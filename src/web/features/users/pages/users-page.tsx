import { Badge, Button, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconUserPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { messages } from '#shared/messages';
import { TEAM_ROLE_DESCRIPTIONS, TEAM_ROLE_LABELS } from '#shared/roles';
import type { UserView } from '#shared/schemas/users';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ListTable } from '../../../components/list-table';
import { editAndDeleteCells } from '../../../components/row-actions';
import { countOf, ListToolbar, useListControls } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { PaginationBar } from '../../../components/pagination-bar';
import { hasErrorCode } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useDeleteUser, userKeys, useUsers } from '../api/users';
import { UserFormDialog } from '../components/user-form-dialog';
import classes from './users-page.module.css';

export default function UsersPage() {
  const list = useListControls();
  const { debounced, page } = list;
  const users = useUsers(page, debounced);
  const remove = useDeleteUser(userKeys.list(page, debounced));
  const [formOpen, formDialog] = useDisclosure(false);
  const [editing, setEditing] = useState<UserView | null>(null);
  const [deleting, setDeleting] = useState<UserView | null>(null);

  useEffect(() => {
    if (users.isError) toast.error(messages.usersLoadError);
  }, [users.isError]);

  const confirmDelete = () => {
    const target = deleting;
    if (!target) return;
    setDeleting(null);
    remove.mutate(target._id, {
      onError: (error) =>
        toast.error(hasErrorCode(error, 'LAST_OWNER', 'OWN_ACCOUNT') ? error.message : messages.userDeleteError),
    });
  };

  return (
    <>
      <PageHeader
        title="Users"
        actions={
          <Button
            leftSection={<IconUserPlus size={18} aria-hidden />}
            onClick={() => {
              setEditing(null);
              formDialog.open();
            }}
          >
            Add User
          </Button>
        }
      />
      <ListToolbar
        controls={list}
        searchLabel="Search"
        searchPlaceholder="Username, name, e-mail or phone"
        count={countOf(users.data?.total, 'user', 'users')}
      />
      {users.isError ? (
        <Text c="red.9" role="alert" mb="md">
          {messages.usersLoadError}
        </Text>
      ) : null}
      <ListTable
        label="Users"
        columns={['Username', 'Full Name', 'Email', 'Phone Number', 'Role', 'Skills', 'Edit', 'Delete']}
        actionColumns={2}
        rows={users.data?.users}
        loading={users.isPending}
        rowKey={(u) => u._id}
        empty={debounced ? 'No users match.' : 'No users yet.'}
        renderRow={(u) => [
          <Text key="u" fw={600}>
            {u.username}
          </Text>,
          u.fullName || '—',
          u.email || '—',
          u.phone || '—',
          <Badge
            key="r"
            className={classes.role}
            variant="light"
            color={u.role === 'admin' ? 'brand' : 'gray'}
            c={u.role === 'admin' ? 'brand.8' : 'dark.6'}
            title={TEAM_ROLE_DESCRIPTIONS[u.teamRole]}
          >
            {TEAM_ROLE_LABELS[u.teamRole]}
          </Badge>,
          u.tags.length ? (
            <Group key="t" gap={4}>
              {u.tags.map((tag) => (
                <Badge
                  key={tag}
                  className={classes.skill}
                  size="sm"
                  variant="outline"
                  color="gray"
                  c="dark.6"
                  tt="none"
                >
                  {tag}
                </Badge>
              ))}
            </Group>
          ) : (
            '—'
          ),
          ...editAndDeleteCells(
            u.username,
            () => {
              setEditing(u);
              formDialog.open();
            },
            () => setDeleting(u),
          ),
        ]}
      />
      <PaginationBar page={page} totalPages={users.data?.totalPages ?? 1} onChange={list.setPage} />
      <UserFormDialog opened={formOpen} user={editing} onClose={formDialog.close} />
      <ConfirmDialog
        opened={Boolean(deleting)}
        title="Confirm Deletion"
        confirmLabel="Delete"
        confirmColor="red.9"
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      >
        <Text>Are you sure you want to delete this item? This action cannot be undone.</Text>
      </ConfirmDialog>
    </>
  );
}
