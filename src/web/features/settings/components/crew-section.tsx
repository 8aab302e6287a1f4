import { Anchor, Checkbox, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { SectionCard } from '../../../components/section-card';
import { useSettingsForm } from './settings-form';

/** Settings → Crew: whether the crew sees prices; the materials they pick from are the price book's. */
export function CrewSection() {
  const { register } = useSettingsForm();
  return (
    <SectionCard title="Crew">
      <Stack gap="sm">
        <Checkbox
          label="The crew sees prices"
          description="Prices of the materials list and of what they add on a job; otherwise the office prices them"
          {...register('crewSeesPrices')}
        />
        <Text size="sm">
          The materials the crew picks from when they record what they used are the materials of the{' '}
          <Anchor component={Link} to={paths.admin.priceBook} underline="always">
            price book
          </Anchor>
          .
        </Text>
      </Stack>
    </SectionCard>
  );
}
