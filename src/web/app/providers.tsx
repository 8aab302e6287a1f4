import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { TOAST_AUTO_CLOSE_MS } from '../../shared/constants';
import { createQueryClient } from './query-client';
import { cssVariablesResolver, theme } from './theme';

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <Notifications position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
