import { Anchor, Checkbox, Stack, Text } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { SectionCard } from '../../../components/section-card';
import { useOwnTwoStep } from '../api/settings';
import { useSettingsForm } from './settings-form';

/**
 * Settings → Sign-in: whether Owner and Office accounts must use two-step sign-in. Requiring it is
 * open once the admin's own account has it (the server refuses otherwise), so it never locks them out.
 */
export function SignInSection({ savedRequired }: { savedRequired: boolean }) {
  const { register, control } = useSettingsForm();
  const own = useOwnTwoStep();
  const required = useWatch({ control, name: 'requireTwoStep' });
  const ownOn = own.data?.enabled ?? false;
  const mayRequire = savedRequired || ownOn;
  return (
    <SectionCard title="Sign-in">
      <Stack gap="sm">
        <Checkbox
          label="Require two-step sign-in for Owner and Office"
          description="Admins without it are asked to turn it on before anything else; crew accounts choose for themselves"
          disabled={!mayRequire && !required}
          {...register('requireTwoStep')}
        />
        {!mayRequire && own.data ? (
          <Text size="sm">
            Turn on two-step sign-in for your own account first, on{' '}
            <Anchor component={Link} to={paths.admin.account} underline="always">
              Your account
            </Anchor>
            .
          </Text>
        ) : null}
      </Stack>
    </SectionCard>
  );
}
