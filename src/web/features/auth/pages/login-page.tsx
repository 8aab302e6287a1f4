import { Alert, Button, Container, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { messages } from '#shared/messages';
import { ApiError, hasErrorCode, tokenStore } from '../../../lib/api-client';
import { returnPath } from '../../../lib/return-to';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { userRoleKey, useLogin, useUserRole } from '../api/session';
import { WaitScreen } from '../components/require-role';
import layout from '../../../components/layout.module.css';

export default function LoginPage() {
  usePageTitle('Admin Sign In');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const stored = useUserRole();
  const login = useLogin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // Two-step sign-in (decision 040): asked for once the server says the password was right.
  const [askCode, setAskCode] = useState(false);
  const [code, setCode] = useState('');
  const codeField = useRef<HTMLInputElement>(null);
  const [params] = useSearchParams();
  const next = params.get('next');
  const ended = params.get('session') === 'ended';

  // A failed role lookup for a stored token is silently ignored: the form stays.
  useEffect(() => {
    if (stored.isError) tokenStore.clear();
  }, [stored.isError]);

  if (stored.data?.valid && stored.data.userRole) {
    return (
      <>
        <WaitScreen title="Redirecting" text="Please wait while we take you to the dashboard." />
        <Navigate to={returnPath(next, stored.data.userRole)} replace />
      </>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim() || !password) {
      toast.warning(messages.loginRequired);
      return;
    }
    if (askCode && !code.trim()) {
      toast.warning(messages.twoStepRequired);
      codeField.current?.focus();
      return;
    }
    try {
      const result = await login.mutateAsync({
        username: username.trim(),
        password,
        ...(askCode ? { code: code.trim() } : {}),
      });
      if (!result?.token) {
        toast.error(messages.loginNoToken);
        return;
      }
      tokenStore.set(result.token);
      queryClient.removeQueries({ queryKey: userRoleKey });
      // The warnings of failed attempts are done with: only the success follows onto the next page.
      toast.clear();
      toast.success(messages.loginSuccess);
      navigate(returnPath(next, result.role), { replace: true });
    } catch (error) {
      if (hasErrorCode(error, 'TWO_STEP_REQUIRED')) {
        setAskCode(true);
        // After the field is drawn.
        setTimeout(() => codeField.current?.focus(), 0);
        return;
      }
      if (hasErrorCode(error, 'TWO_STEP_INVALID')) setCode('');
      toast.warning(error instanceof ApiError ? error.message : messages.loginNoToken);
    }
  };

  return (
    <Container size={440} className={layout.pagePadLoose}>
      <Paper withBorder shadow="md" radius="lg" className={layout.cardPad}>
        <form onSubmit={onSubmit} noValidate aria-label="Admin Sign In">
          <Stack>
            <div>
              <Title order={1} size="h2">
                Admin Sign In
              </Title>
              <Text c="dimmed" size="sm" mt={4}>
                Sign in with your username to manage requests, quotes and jobs.
              </Text>
            </div>
            {ended ? (
              <Alert color="blue" role="status" title="Your session has ended">
                Please sign in again{next ? ' to go back to the page you were on' : ''}.
              </Alert>
            ) : null}
            <TextInput
              label="Username"
              type="text"
              autoComplete="username"
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              disabled={login.isPending}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              disabled={login.isPending}
              visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the password' }}
            />
            {askCode ? (
              <TextInput
                ref={codeField}
                label="Code from your authenticator app"
                description="The 6 digits your app shows now, or one of your recovery codes."
                autoComplete="one-time-code"
                spellCheck={false}
                autoCapitalize="off"
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                disabled={login.isPending}
              />
            ) : null}
            <Button type="submit" loading={login.isPending} size="md">
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
