import { Anchor, Box, Button, Container, Group, Text } from '@mantine/core';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { paths } from '#shared/paths';
import { IconHome } from '@tabler/icons-react';
import { BrandMark } from '../../components/logo';
import { siteConfig } from '../../lib/site-config';
import classes from './public-layout.module.css';

const wideLinks = [
  { to: paths.servicesSection, label: 'Services' },
  { to: paths.getAQuote, label: 'Get A Quote' },
  { to: paths.contact, label: 'Contact' },
  { to: paths.quoteRequestStatus, label: 'Quote Request Status' },
];

const narrowLinks = [
  { to: paths.getAQuote, label: 'Get A Quote' },
  { to: paths.contact, label: 'Contact' },
  { to: paths.quoteRequestStatus, label: 'Quote Status' },
];

/**
 * Phones get the home icon and three short buttons, wider screens the name and the full menu. Both
 * are in the HTML and CSS shows one (at NARROW_BREAKPOINT_PX, Mantine's "sm"), so the page the
 * server renders is already right on either before any script runs.
 */
function TopBar({ overlay }: { overlay: boolean }) {
  const { businessName } = siteConfig();
  return (
    <Box component="header" className={overlay ? `${classes.bar} ${classes.overlay}` : classes.bar}>
      <Container size="lg" className={classes.inner}>
        <div className={classes.narrowOnly}>
          <Anchor component={Link} to={paths.home} className={classes.homeIcon} aria-label={`${businessName}: home`}>
            <IconHome size={26} aria-hidden />
          </Anchor>
          <Group gap={6} wrap="nowrap" component="nav" aria-label="Main">
            {narrowLinks.map((l) => (
              <Button
                key={l.to}
                component={Link}
                to={l.to}
                size="compact-sm"
                variant="white"
                className={classes.narrowButton}
              >
                {l.label}
              </Button>
            ))}
          </Group>
        </div>
        <div className={classes.wideOnly}>
          <Anchor component={Link} to={paths.home} className={classes.brand} underline="never">
            <BrandMark size={34} />
            <span>{businessName}</span>
          </Anchor>
          <Group gap="lg" component="nav" aria-label="Main">
            {wideLinks.map((l) =>
              l.to.includes('#') ? (
                <Link key={l.to} to={l.to} className={classes.link}>
                  {l.label}
                </Link>
              ) : (
                <NavLink key={l.to} to={l.to} className={classes.link}>
                  {l.label}
                </NavLink>
              ),
            )}
          </Group>
        </div>
      </Container>
    </Box>
  );
}

function Footer() {
  const { businessName } = siteConfig();
  return (
    <Box component="footer" className={classes.footer}>
      <Container size="lg">
        <Group justify="space-between" gap="sm">
          <Text size="sm">
            © {new Date().getFullYear()} {businessName}. All rights reserved.
          </Text>
          <Anchor component={Link} to="/Login" size="sm" className={classes.footerLink}>
            Admin Login
          </Anchor>
        </Group>
      </Container>
    </Box>
  );
}

/** The public site's frame: top bar (translucent over the home hero), page, footer. */
export function PublicLayout() {
  const { pathname } = useLocation();
  const isHome = pathname === paths.home;
  return (
    <div className={classes.page}>
      <a href="#main" className={classes.skip}>
        Skip to content
      </a>
      <TopBar overlay={isHome} />
      <main id="main" className={classes.main}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
