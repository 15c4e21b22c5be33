import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { MemoryRouter } from 'react-router-dom';
import type { ReactNode } from 'react';
import { scoreLabel } from '@site/contracts/analysis-rules';
import { server } from '../../../../../vitest.msw';
import { Scorecard, type ScorecardProps } from '../scorecard';
import luna from './fixtures/luna-pizza.json';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests reshape the fixture freely (missing parts, other states) */

/** A real answer of the API in simulation mode (POST /api/analyze-smb-business, Luna Pizza Danville). */
export const LUNA = luna as unknown as Record<string, unknown>;

/** A deep copy of the fixture to change in one test. */
export function lunaCopy(): Record<string, any> {
  return structuredClone(luna) as Record<string, any>;
}

/** The fixture with every simulated flag removed (as if the data were live). */
export function withoutMockFlags(value: unknown): any {
  if (Array.isArray(value)) return value.map(withoutMockFlags);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'isMockData')
        .map(([k, v]) => [k, withoutMockFlags(v)]),
    );
  }
  return value;
}

/**
 * The fixture as if every provider key were set: no sample flags, simulated statuses verified, grades as labels.
 * Combine with withoutMockFlags to drop the isMockData markers too.
 */
export function asLive(r: Record<string, any>): Record<string, any> {
  const walk = (v: any): void => {
    if (!v || typeof v !== 'object') return;
    if (!Array.isArray(v)) {
      if (v.status === 'simulated') v.status = 'verified';
      if (v.sample === true) v.sample = false;
    }
    Object.values(v).forEach(walk);
  };
  walk(r.scores);
  for (const s of Object.values(r.scores) as any[]) if (s.verified) s.label = scoreLabel(s.score);
  if (r.aiAssessment) r.aiAssessment.basedOnSampleData = false;
  return r;
}

export type SentEvent = { name: string; props?: Record<string, unknown>; path: string };

class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

/** jsdom gaps the Radix primitives touch, and analytics recorded through MSW. */
export function prepare(): { events: SentEvent[] } {
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as unknown as typeof window.matchMedia;
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
  globalThis.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver;
  Object.defineProperty(navigator, 'sendBeacon', { value: undefined, configurable: true });
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

export function renderScorecard(props: Partial<ScorecardProps> & { result: ScorecardProps['result'] }, extra?: ReactNode) {
  const user = userEvent.setup();
  const utils = render(
    <MemoryRouter initialEntries={['/free-analysis']}>
      <Scorecard {...props} />
      {extra}
    </MemoryRouter>,
  );
  return { user, ...utils };
}
