import { cleanup, configure } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { flushTrackedEvents } from './packages/ui/src/track';

/**
 * The network of every front-end test: MSW answers the requests a test declares (`server.use(http.get(…))`);
 * any other request fails the test instead of reaching a real server or hanging.
 */
export const server = setupServer();

// findBy…/waitFor wait up to 5 s for what the user would see (1 s by default): a screen's lazy code and its first
// answers can take longer than a second while the API's test files run beside these on 2 cores.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  // Events track() holds for the next frame go out within the test that made them (to its handlers, its mocks).
  flushTrackedEvents();
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());
