import { Container, Title } from '@mantine/core';
import { siteConfig } from '../../../lib/site-config';

export function HomePage() {
  return (
    <Container py={120}>
      <Title>{siteConfig().businessName}</Title>
    </Container>
  );
}
