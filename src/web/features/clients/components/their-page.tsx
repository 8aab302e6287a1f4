import { Alert, Container, Loader, Group, Modal } from '@mantine/core';
import { useTheirPage } from '../api/client-page';
import { ClientPageContent } from './client-page-view';

/**
 * A client's own page as they see it, for the office (decision 036): read-only, and each opening is
 * recorded in the audit trail by the server.
 */
export function TheirPage({ clientId, onClose }: { clientId: string; onClose: () => void }) {
  const page = useTheirPage(clientId, true);
  return (
    <Modal opened onClose={onClose} fullScreen title="Their page, as the client sees it (read-only)">
      <Container size={720} px={0}>
        {page.data ? (
          <ClientPageContent page={page.data} />
        ) : page.isError ? (
          <Alert color="red" title="Their page could not be opened">
            {page.error.message}
          </Alert>
        ) : (
          <Group justify="center" py="xl">
            <Loader aria-label="Loading their page" />
          </Group>
        )}
      </Container>
    </Modal>
  );
}
