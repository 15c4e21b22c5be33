import { cleanup } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { flushTrackedEvents } from './packages/ui/src/track';

/**
 * The network of every front-end test: MSW answers the requests a test declares (`server.use(http.get(…))`);
 * any other request fails the test instead of reaching a real server or hanging.
 */
export const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  // Events track() holds for the next frame go out within the test that made them (to its handlers, its mocks).
  flushTrackedEvents();
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());
