import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Toaster } from 'sonner';
import { server } from '../../../../../vitest.msw';
import { INITIAL_DRAFT, useAnalysisStore } from '../hooks/use-analysis-store';
import answer from './fixtures/sunrise-cafe.json';

/** A real answer of the API (simulation mode), stored as JSON. */
export const ANSWER = answer as unknown as Record<string, unknown> & { id: string };

export type SentEvent = { name: string; props?: Record<string, unknown>; path: string };

/** Test setup shared by the tool's tests: jsdom gaps, analytics through fetch (recorded), a fresh store. */
export function prepare(): { events: SentEvent[] } {
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as unknown as typeof window.matchMedia;
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
  // track() falls back to fetch without sendBeacon, so the events reach MSW and can be read.
  Object.defineProperty(navigator, 'sendBeacon', { value: undefined, configurable: true });
  useAnalysisStore.setState({ mode: 'smb', draft: INITIAL_DRAFT, isAnalyzing: false, step: 0, result: null, error: null, lastRequest: null });
  const events: SentEvent[] = [];
  server.use(
    http.post('/api/events', async ({ request }) => {
      // One event, or the events of one moment in a batch (track() sends them together after the next paint).
      const body = (await request.json()) as SentEvent | { events: SentEvent[] };
      events.push(...('events' in body ? body.events : [body]));
      return new HttpResponse(null, { status: 202 });
    }),
  );
  return { events };
}

/** Answers POST `path` with `answers` in turn (the last repeats) and records the bodies sent. */
export function analysisApi(path: string, ...answers: Array<() => Response | Promise<Response>>) {
  const sent: Array<Record<string, unknown>> = [];
  server.use(
    http.post(path, async ({ request }) => {
      sent.push((await request.json()) as Record<string, unknown>);
      return answers[Math.min(sent.length, answers.length) - 1]!();
    }),
  );
  return sent;
}

function WhereAmI() {
  const { pathname, search } = useLocation();
  return <output aria-label="Current address">{pathname + search}</output>;
}

/** Renders `element` at `path` inside a router (with the address shown) and the toaster. */
export function renderAt(path: string, element: ReactNode, options: Parameters<typeof userEvent.setup>[0] = {}) {
  const user = userEvent.setup(options);
  const utils = render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/free-analysis" element={element} />
        <Route path="/website-analysis" element={element} />
        <Route path="/free-analysis/report/:id" element={element} />
        <Route path="*" element={<p>Elsewhere</p>} />
      </Routes>
      <WhereAmI />
      <Toaster />
    </MemoryRouter>,
  );
  return { user, ...utils };
}
