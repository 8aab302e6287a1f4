import { Button, Container, Group, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { defaultBusiness } from '#shared/business';
import { HERO_FADE_MS, HERO_INTERVAL_MS } from '#shared/constants';
import { paths } from '#shared/paths';
import { siteConfig } from '../../../lib/site-config';
import { useHydrated } from '../../../lib/use-hydrated';
import classes from './hero.module.css';

const srcSet = (base: string) => [640, 1280, 1920].map((w) => `${base}-${w}.webp ${w}w`).join(', ');

/** Full-height hero: the business's photos cross-fade every 7 s in a loop behind the name and calls to action. */
export function Hero() {
  const { businessName, heroImages } = siteConfig();
  // The page arrives with the first photo only: the others, stacked under it and so never "off-screen"
  // for the browser's lazy loading, would share a phone's first seconds of network with it (issue 34).
  // They come once the app runs, seconds before the first cross-fade.
  const slides = useHydrated() ? heroImages : heroImages.slice(0, 1);
  const [active, setActive] = useState(0);
  useEffect(() => {
    if (heroImages.length < 2) return;
    const timer = setInterval(() => setActive((i) => (i + 1) % heroImages.length), HERO_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [heroImages.length]);

  return (
    <section className={classes.hero} aria-label="Welcome">
      {slides.map((base, i) => (
        <img
          key={base}
          className={classes.slide}
          data-active={i === active || undefined}
          style={{ transitionDuration: `${HERO_FADE_MS}ms` }}
          srcSet={srcSet(base)}
          sizes="100vw"
          src={`${base}-1280.webp`}
          alt=""
          loading={i === 0 ? 'eager' : 'lazy'}
          fetchPriority={i === 0 ? 'high' : 'low'}
          decoding="async"
        />
      ))}
      <div className={classes.shade} />
      <Container size="lg" className={classes.content}>
        <Title order={1} className={classes.title}>
          {businessName}
        </Title>
        <Text className={classes.tagline}>{defaultBusiness.tagline}</Text>
        <Group gap="md" mt="xl">
          <Button component={Link} to={paths.getAQuote} size="lg" color="accent">
            Get a Quote
          </Button>
          <Button component={Link} to={paths.contact} size="lg" variant="white" color="brand">
            Contact
          </Button>
        </Group>
      </Container>
    </section>
  );
}
