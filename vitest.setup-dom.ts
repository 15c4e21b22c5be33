import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { server } from './vitest.msw';

/*
 * Each file starts from what a fresh page would have: the files of a worker share one DOM and one module registry
 * (isolate: false), so the site's own modules are loaded again for each file (its stores, its queues; React, MSW and the
 * testing library stay loaded), and the storage, the cookies, the document and the URL an earlier file left are cleared.
 * This runs before the file's own imports.
 */
vi.resetModules();
localStorage.clear();
sessionStorage.clear();
for (const cookie of document.cookie.split(';')) {
  const name = cookie.split('=')[0]!.trim();
  if (name) document.cookie = `${name}=; max-age=0; path=/`;
}
document.head.replaceChildren();
document.body.replaceChildren();
for (const { name } of Array.from(document.documentElement.attributes)) document.documentElement.removeAttribute(name);
history.replaceState(null, '', '/');

// findBy…/waitFor wait up to 5 s for what the user would see (1 s by default): a screen's lazy code and its first
// answers can take longer than a second while the API's test files run beside these on 2 cores.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  // Events track() holds for the next frame go out within the test that made them (to its handlers, its mocks): the
  // file's own instance of the module, loaded after the reset above.
  (await import('./packages/ui/src/track')).flushTrackedEvents();
  cleanup();
  server.resetHandlers();
});
afterAll(() => server.close());
