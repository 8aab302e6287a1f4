import { Button, Container, Group, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { defaultBusiness } from '#shared/business';
import { paths } from '#shared/paths';
import { siteConfig } from '../../../lib/site-config';
import { heroFade, heroSrcSet, startHeroSlides } from './hero-slides';
import classes from './hero.module.css';

/**
 * Full-height hero: the business's photos cross-fade every 7 s in a loop behind the name and calls to
 * action. It renders the first photo; `startHeroSlides` brings the others and turns them, on the page
 * the server sent (main.tsx) as in the app.
 */
export function Hero() {
  const { businessName, heroImages } = siteConfig();
  const section = useRef<HTMLElement>(null);
  useEffect(() => startHeroSlides(section.current!), []);
  const first = heroImages[0];

  return (
    <section ref={section} className={classes.hero} aria-label="Welcome" data-slides={heroImages.join(' ')}>
      {first && (
        <img
          className={classes.slide}
          data-active
          style={{ transitionDuration: heroFade }}
          srcSet={heroSrcSet(first)}
          sizes="100vw"
          src={`${first}-1280.webp`}
          alt=""
          loading="eager"
          fetchPriority="high"
          decoding="async"
        />
      )}
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
