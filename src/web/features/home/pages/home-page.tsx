import { Anchor, Box, Button, Card, Container, Group, Stack, Text, Title } from '@mantine/core';
import {
  IconAward,
  IconBath,
  IconBolt,
  IconBrush,
  IconBuildingStore,
  IconDoor,
  IconDots,
  IconMail,
  IconMapPin,
  IconPhone,
  IconRuler2,
  IconSparkles,
  IconBulb,
  IconThumbUp,
  IconWall,
  IconLayoutGrid,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { telHref } from '../../../lib/links';
import { siteConfig } from '../../../lib/site-config';
import { usePageTitle } from '../../../lib/use-page-title';
import { Hero } from '../components/hero';
import classes from './home-page.module.css';
import layout from '../../../components/layout.module.css';

const features = [
  {
    icon: IconBolt,
    title: 'Fast Quotes',
    text: 'Send a few photos of the job and get a quick estimate, without waiting on a visit.',
  },
  {
    icon: IconThumbUp,
    title: 'Great Service',
    text: 'Qualified professionals who show up on time, keep you informed and respect your home.',
  },
  {
    icon: IconAward,
    title: 'Best Quality',
    text: 'The best quality of work, with sound materials, done right the first time.',
  },
];

const services = [
  { icon: IconBuildingStore, label: 'Commercial and Residential' },
  { icon: IconSparkles, label: 'Pressure Washing' },
  { icon: IconDoor, label: 'Doors and Frames' },
  { icon: IconRuler2, label: 'Casing/Trim/Moulding' },
  { icon: IconLayoutGrid, label: 'Tile' },
  { icon: IconBrush, label: 'Painting' },
  { icon: IconWall, label: 'Drywall' },
  { icon: IconBath, label: 'Plumbing Fixtures' },
  { icon: IconBulb, label: 'Electrical Fixtures' },
  { icon: IconDots, label: 'And so much more' },
];

/** "Casing/Trim/Moulding" may wrap after a slash, never inside a word, in a narrow column. */
function breakAfterSlashes(label: string) {
  return label.split('/').flatMap((part, i) => (i === 0 ? [part] : ['/', <wbr key={i} />, part]));
}

export function HomePage() {
  usePageTitle(undefined);
  const { businessEmail, businessPhone, serviceAreaHeadline } = siteConfig();
  return (
    <>
      <Hero />

      <Container size="lg" className={layout.sectionPad}>
        <div className={`${layout.grid} ${layout.gridWide} ${layout.cols3}`}>
          {features.map((f) => (
            <Card key={f.title} withBorder radius="lg" padding="xl" shadow="sm">
              <span className={classes.featureIcon}>
                <f.icon size={28} aria-hidden />
              </span>
              <Title order={2} size="h3" mt="md">
                {f.title}
              </Title>
              <Text c="dimmed" mt="xs">
                {f.text}
              </Text>
            </Card>
          ))}
        </div>
      </Container>

      <Box id="services-section" className={classes.services}>
        <Container size="lg" className={layout.sectionPad}>
          <Title order={2} ta="center" className={classes.sectionTitle}>
            Our Services
          </Title>
          <Text ta="center" c="dimmed" mt="sm" maw={620} mx="auto">
            Repairs, installs and upkeep for homes and businesses, big jobs and small.
          </Text>
          <Box component="ul" mt={40} className={`${layout.grid} ${layout.grid235} ${classes.serviceList}`}>
            {services.map((s) => (
              <Stack key={s.label} component="li" align="center" gap="xs" className={classes.service}>
                <span className={classes.serviceIcon}>
                  <s.icon size={26} aria-hidden />
                </span>
                <Text fw={600} ta="center" size="sm">
                  {breakAfterSlashes(s.label)}
                </Text>
              </Stack>
            ))}
          </Box>
        </Container>
      </Box>

      <Box className={classes.cta}>
        <Container size="lg" className={layout.bandPad}>
          <Group justify="space-between" gap="lg">
            <Title order={2} className={classes.ctaTitle}>
              Don&apos;t wait, get an estimate now!
            </Title>
            <Button component={Link} to={paths.getAQuote} size="lg" color="accent">
              Get a Quote
            </Button>
          </Group>
        </Container>
      </Box>

      <Container size="lg" className={layout.sectionPad}>
        <Stack align="center" ta="center" gap="sm">
          <Title order={2} className={classes.sectionTitle}>
            Contact Us
          </Title>
          <Group gap="xl" justify="center" mt="md">
            <Anchor href={`mailto:${businessEmail}`} className={classes.contactLink}>
              <IconMail size={22} aria-hidden /> {businessEmail}
            </Anchor>
            <Anchor href={telHref(businessPhone)} className={classes.contactLink}>
              <IconPhone size={22} aria-hidden /> {businessPhone}
            </Anchor>
          </Group>
          <Text fw={600} mt="md" className={classes.serving}>
            <IconMapPin size={20} aria-hidden /> Proudly Serving {serviceAreaHeadline}
          </Text>
        </Stack>
      </Container>
    </>
  );
}
