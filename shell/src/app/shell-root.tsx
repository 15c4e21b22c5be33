import { StrictMode, type ReactNode } from 'react';
import { ErrorBoundary, ErrorFallback } from '@site/ui';
import { RemoteEnvironmentContext, type RemoteEnvironment } from '../features/remotes/lib/remote-environment';

/**
 * The outside of the shell's tree, the same in the browser (main.tsx, around BrowserRouter) and on the server
 * (server-entry.tsx, around StaticRouter): hydration needs both trees to have one shape.
 */
export function ShellRoot({ environment, children }: { environment: RemoteEnvironment; children: ReactNode }) {
  return (
    <StrictMode>
      <RemoteEnvironmentContext value={environment}>
        <ErrorBoundary fallback={({ reset }) => <ErrorFallback reset={reset} />}>{children}</ErrorBoundary>
      </RemoteEnvironmentContext>
    </StrictMode>
  );
}
