import { Text } from '@mantine/core';
import { IconLock, IconMapQuestion } from '@tabler/icons-react';
import { HomeAndContactButtons, MessagePage } from './message-page';

export function NotFoundPage() {
  return (
    <MessagePage
      eyebrow="404"
      title="Page Not Found"
      icon={<IconMapQuestion size={34} />}
      actions={<HomeAndContactButtons />}
    >
      <Text c="dimmed">The page you are looking for does not exist or has moved.</Text>
    </MessagePage>
  );
}

export function UnauthorizedPage() {
  return (
    <MessagePage
      eyebrow="401"
      title="Unauthorized"
      icon={<IconLock size={34} />}
      color="red"
      actions={<HomeAndContactButtons />}
    >
      <Text c="dimmed">You do not have permission to view this page</Text>
    </MessagePage>
  );
}
