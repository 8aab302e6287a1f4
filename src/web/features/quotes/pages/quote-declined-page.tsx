import { Text } from '@mantine/core';
import { IconCircleX } from '@tabler/icons-react';
import { HomeAndContactButtons, MessagePage } from '../../../components/message-page';

export default function QuoteDeclinedPage() {
  return (
    <MessagePage
      title="Successfully declined"
      icon={<IconCircleX size={34} />}
      color="gray"
      actions={<HomeAndContactButtons />}
    >
      <Text size="lg">You have declined the quote.</Text>
      <Text c="dimmed">Changed your mind or have a question? Contact us and we will be glad to help.</Text>
    </MessagePage>
  );
}
