import { Button, Text } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { MessagePage } from '../../../components/message-page';

export default function QuoteRequestSentPage() {
  return (
    <MessagePage
      title="Sent!"
      icon={<IconSend size={34} />}
      color="green"
      actions={
        <>
          <Button component={Link} to={paths.quoteRequestStatus}>
            Check Status
          </Button>
          <Button component={Link} to={paths.home} variant="outline">
            Go Home
          </Button>
        </>
      }
    >
      <Text size="lg">Thanks for submitting a quote request!</Text>
      <Text c="dimmed">
        We sent you an e-mail with your Quote Number. Use it to check the status of your request at any time.
      </Text>
    </MessagePage>
  );
}
