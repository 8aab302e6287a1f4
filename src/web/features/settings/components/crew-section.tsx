import { Anchor, Checkbox, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { SectionCard } from '../../../components/section-card';
import { useSettingsForm } from './settings-form';

/** Settings → Crew: whether the crew, or only Crew leads, see prices; the materials they pick from are the price book's. */
export function CrewSection() {
  const { register, watch } = useSettingsForm();
  const everyone = watch('crewSeesPrices');
  return (
    <SectionCard title="Crew">
      <Stack gap="sm">
        <Checkbox
          label="The crew sees prices"
          description="Prices of the materials list and of what they add on a job; otherwise the office prices them"
          {...register('crewSeesPrices')}
        />
        <Checkbox
          label="Crew leads see prices"
          description={
            everyone
              ? 'They do, with the rest of the crew'
              : 'Crew leads see and give prices on their jobs even when the rest of the crew does not'
          }
          {...register('crewLeadsSeePrices')}
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
