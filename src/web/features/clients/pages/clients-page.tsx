import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { addressLine, telHref } from '../../../lib/links';
import { ListTable } from '../../../components/list-table';
import { countOf, ListToolbar, useListControls } from '../../../components/list-toolbar';
import { PageHeader } from '../../../components/page-header';
import { PaginationBar } from '../../../components/pagination-bar';
import { useClients } from '../api/clients';

/** Every client, newest first: searched by name, e-mail, phone or address. */
export default function ClientsPage() {
  const list = useListControls();
  const { debounced, page } = list;
  const clients = useClients(page, debounced);
  return (
    <>
      <PageHeader title="Clients" />
      <ListToolbar
        controls={list}
        searchLabel="Search clients"
        searchPlaceholder="Name, e-mail, phone or address"
        count={countOf(clients.data?.total, 'client', 'clients')}
      />
      <ListTable
        label="Clients"
        columns={['Name', 'Email', 'Phone', 'Address', 'Action']}
        rows={clients.data?.clients}
        loading={clients.isPending}
        rowKey={(c) => c._id}
        empty={debounced ? 'No clients match.' : 'No clients yet: they appear with their first request.'}
        renderRow={(c) => [
          <Anchor key="n" component={Link} to={paths.admin.client(c._id)} fw={600} size="sm">
            {c.name}
          </Anchor>,
          c.email ? (
            <Anchor key="e" href={`mailto:${c.email}`} size="sm">
              {c.email}
            </Anchor>
          ) : (
            <Text key="e" c="dimmed" size="sm">
              No e-mail
            </Text>
          ),
          c.phone ? (
            <Anchor key="p" href={telHref(c.phone)} size="sm">
              {c.phone}
            </Anchor>
          ) : (
            'No phone'
          ),
          c.addresses[0]
            ? `${addressLine(c.addresses[0])}${c.addresses.length > 1 ? ` (+${c.addresses.length - 1} more)` : ''}`
            : 'No address',
          <Anchor key="a" component={Link} to={paths.admin.client(c._id)} fw={600}>
            View
          </Anchor>,
        ]}
      />
      <PaginationBar page={page} totalPages={clients.data?.totalPages ?? 1} onChange={list.setPage} />
    </>
  );
}
