import { setupServer, type SetupServer } from 'msw/node';

/**
 * The network of every front-end test: MSW answers the requests a test declares (`server.use(http.get(…))`);
 * any other request fails the test instead of reaching a real server or hanging (vitest.setup-dom.ts starts it).
 * One server per worker: the files of a worker share it, though each file loads this module afresh.
 */
const shared = globalThis as { __siteMswServer?: SetupServer };
export const server: SetupServer = (shared.__siteMswServer ??= setupServer());
