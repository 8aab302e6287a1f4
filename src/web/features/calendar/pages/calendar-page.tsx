import { Box, Loader, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { siteConfig } from '../../../lib/site-config';
import classes from './calendar-page.module.css';

/** The business's shared calendar (Los Angeles time), embedded from CALENDAR_EMBED_URL. */
export default function CalendarPage() {
  const url = siteConfig().calendarEmbedUrl;
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <PageHeader title="Calendar" />
      <Paper withBorder radius="lg" p="sm" className={classes.frame}>
        {url ? (
          <>
            {!loaded ? (
              <Box className={classes.spinner}>
                <Loader aria-label="Loading the calendar" />
              </Box>
            ) : null}
            <iframe title="Shared calendar" src={url} className={classes.iframe} onLoad={() => setLoaded(true)} />
          </>
        ) : (
          <Text c="dimmed" ta="center" py={80}>
            Embed URL is missing
          </Text>
        )}
      </Paper>
    </>
  );
}
