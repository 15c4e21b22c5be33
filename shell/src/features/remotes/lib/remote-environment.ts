import { createContext, type ReactNode } from 'react';
import type { RemotesMap } from '@site/contracts/manifest';
import type { ServerArea as ContractArea } from '@site/contracts/server-render';
import type { LoadRemoteApp } from './remote-loader';

/**
 * What the server rendered in the matched remote's area: the remote's page element (from its server entry's
 * `render`), or nothing (`client`: the remote's server entry is missing, failed or was too slow, so the browser
 * renders the area, as it does without server rendering).
 */
export type ServerArea = ContractArea<ReactNode>;

/**
 * How RemoteRouter gets its remotes: in the browser, `load` (federation, provided by main.tsx); on the server, the
 * remotes map and the area the server rendered. The server bundle never imports the federation runtime.
 */
export interface RemoteEnvironment {
  load?: LoadRemoteApp;
  /** In the browser, when the server served this page with a development override (dev-override.ts). */
  devOverride?: { loadedAt: string };
  server?: { remotes: Partial<RemotesMap>; area: ServerArea };
}

export const RemoteEnvironmentContext = createContext<RemoteEnvironment>({});

/**
 * Thrown while the server renders an area the browser is to render: React answers it by sending the area's
 * loading fallback and rendering it in the browser after hydration. Its digest lets the browser tell this
 * planned hand-over from a real failure.
 */
export const CLIENT_RENDER_DIGEST = 'site:client-rendered-area';

/** The digest of an area whose remote threw while the server rendered it (the server logged the error). */
export const REMOTE_FAILED_DIGEST = 'site:remote-render-failed';
