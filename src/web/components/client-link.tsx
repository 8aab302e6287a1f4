import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '#shared/paths';

/** A client's name, linking to their page in the back office when the record is known. */
export function ClientLink({ clientId, name }: { clientId: string | null | undefined; name: string }) {
  if (!clientId) return <>{name}</>;
  return (
    <Anchor component={Link} to={paths.admin.client(clientId)} style={{ overflowWrap: 'anywhere' }}>
      {name}
    </Anchor>
  );
}
