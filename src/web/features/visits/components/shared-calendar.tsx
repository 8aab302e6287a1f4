import { Box, Loader, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import { siteConfig } from '../../../lib/site-config';
import classes from './shared-calendar.module.css';

/** The business's shared calendar, embedded from CALENDAR_EMBED_URL (the spec's Calendar page), with a spinner until it loads. */
export function SharedCalendar() {
  const url = siteConfig().calendarEmbedUrl;
  const [loaded, setLoaded] = useState(false);
  if (!url)
    return (
      <Paper withBorder radius="lg" p="sm">
        <Text c="dimmed" ta="center" py={80}>
          Embed URL is missing
        </Text>
      </Paper>
    );
  return (
    <Paper withBorder radius="lg" p="sm" className={classes.embed}>
      {!loaded ? (
        <Box className={classes.spinner}>
          <Loader aria-label="Loading the calendar" />
        </Box>
      ) : null}
      <iframe title="Shared calendar" src={url} className={classes.iframe} onLoad={() => setLoaded(true)} />
    </Paper>
  );
}
