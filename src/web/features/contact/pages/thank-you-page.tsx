import { Text } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { HomeAndContactButtons, MessagePage } from '../../../components/message-page';

export default function ThankYouPage() {
  return (
    <MessagePage
      eyebrow="Sent!"
      title="Thanks for contacting the provider!"
      icon={<IconMailCheck size={34} />}
      color="green"
      actions={<HomeAndContactButtons />}
    >
      <Text size="lg">We'll be in touch soon.</Text>
    </MessagePage>
  );
}
