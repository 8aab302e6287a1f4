import { Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { HomeAndContactButtons, MessagePage } from '../../../components/message-page';

export default function QuoteAcceptedPage() {
  return (
    <MessagePage
      title="Thank You!"
      icon={<IconCircleCheck size={34} />}
      color="green"
      actions={<HomeAndContactButtons />}
    >
      <Text size="lg">You have accepted the quote. We will reach out to schedule a time that works.</Text>
    </MessagePage>
  );
}
