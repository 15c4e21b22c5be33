import type { AppName } from '@site/contracts/deploys';

/** The deploys feature's cache keys: `log()` reaches every filter's pages and the dashboard's recent entries. */
export const deployKeys = {
  tokens: () => ['deploys', 'tokens'] as const,
  log: () => ['deploys', 'log'] as const,
  logPages: (app: AppName | null) => ['deploys', 'log', 'pages', app] as const,
  recent: (limit: number) => ['deploys', 'log', 'recent', limit] as const,
  canaries: () => ['deploys', 'canaries'] as const,
};
