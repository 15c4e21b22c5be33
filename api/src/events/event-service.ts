import { randomUUID } from 'node:crypto';
import type { TrackingEvent } from '@site/contracts/events';
import type { RemoteErrorProps, RemoteViewProps } from '@site/contracts/release-errors';
import type { EventsRepository, StoredEvent } from './events-repository';
import type { Clock } from '../lib/clock';
import { isBotUserAgent } from './bot-user-agent';
import type { ReleaseReportGate } from './release-report-gate';

/** What the request says about who sent the events (read from its headers by the route). */
export interface EventSource {
  userAgent?: string;
  /** `Sec-Purpose` or `Purpose`: `prefetch` (also `prefetch;prerender`) when no person is looking at the page yet. */
  purpose?: string;
  /** The browser asks not to be tracked: `DNT: 1` or `Sec-GPC: 1`. */
  optedOut?: boolean;
  /** The client's address (the per-address cap on counted release reports). */
  address?: string;
  /** The page-view token the batch carried (release-report-gate.ts): without a valid one no release report counts. */
  pageToken?: string;
}

/** Why events are accepted and not stored; undefined when they are stored. */
export type IgnoredBecause = 'bot' | 'prefetch' | 'opted-out';

/**
 * How far the browser's own clock may be from ours for its `at` to be kept. A page-view queue is sent within seconds,
 * a keepalive request within a minute; a time outside this window (a phone set to another day, a crafted body) would
 * put the event on the wrong day of the funnel, so the arrival time is used instead.
 */
export const CLIENT_TIME_PAST_MS = 10 * 60_000;
export const CLIENT_TIME_FUTURE_MS = 60_000;

export interface EventService {
  /**
   * Stores validated tracking events, stamped with the time they arrived, unless they come from a crawler, a
   * prefetch or prerender, or a browser that opted out. Answers how many were stored.
   */
  record(events: readonly TrackingEvent[], source: EventSource): Promise<number>;
}

/** Why events from `source` are not stored, or undefined. */
export function ignoredBecause(source: EventSource): IgnoredBecause | undefined {
  if (source.optedOut) return 'opted-out';
  if (source.purpose && /\bprefetch\b/i.test(source.purpose)) return 'prefetch';
  if (isBotUserAgent(source.userAgent)) return 'bot';
  return undefined;
}

/** A remote's view or failure in the browser: counted against its release (release-errors/), never stored as an event. */
export type ReleaseEvent = { name: 'remote_view'; props: RemoteViewProps } | { name: 'remote_error'; props: RemoteErrorProps };
const isReleaseEvent = (event: TrackingEvent): boolean => event.name === 'remote_view' || event.name === 'remote_error';

export function createEventService(deps: {
  events: EventsRepository;
  clock: Clock;
  newId?: () => string;
  /** Where `remote_view` and `remote_error` go (their props checked by the contract): the per-release counters. */
  releases?: { fromBrowser(events: readonly ReleaseEvent[], from?: { reporter?: string | undefined }): Promise<number> };
  /** Which release reports may reach `releases` (required with it: raw reports never move a count). */
  gate?: ReleaseReportGate;
}): EventService {
  const newId = deps.newId ?? randomUUID;
  return {
    async record(all, source) {
      if (all.length === 0 || ignoredBecause(source)) return 0;
      // Bots, prefetches and opted-out browsers are left out above, for these too.
      const releaseEvents = all.filter(isReleaseEvent) as unknown as ReleaseEvent[];
      const gate = releaseEvents.length > 0 && deps.gate ? deps.gate.admit(releaseEvents, { token: source.pageToken, address: source.address ?? '' }) : undefined;
      const counted = gate && gate.admitted.length > 0 && deps.releases ? await deps.releases.fromBrowser(gate.admitted, { reporter: gate.reporter }) : 0;
      const events = all.filter((event) => !isReleaseEvent(event));
      if (events.length === 0) return counted;
      const received = deps.clock();
      const receivedAt = received.toISOString();
      const stored = events.map((event): StoredEvent => {
        const at = event.at ? new Date(event.at) : undefined;
        const plausible = at !== undefined && at.getTime() >= received.getTime() - CLIENT_TIME_PAST_MS && at.getTime() <= received.getTime() + CLIENT_TIME_FUTURE_MS;
        return {
          id: newId(),
          name: event.name,
          props: event.props && Object.keys(event.props).length > 0 ? event.props : null,
          path: event.path,
          // Normalised to UTC so `at` sorts as text across time zones.
          at: plausible ? at.toISOString() : receivedAt,
          receivedAt,
        };
      });
      await deps.events.insertMany(stored);
      return stored.length + counted;
    },
  };
}
