import { randomUUID } from 'node:crypto';
import type { TrackingEvent } from '@site/contracts/events';
import type { EventsRepository, StoredEvent } from '../db/repositories/events-repository';
import type { Clock } from '../lib/clock';

export interface EventService {
  /** Stores one validated tracking event, stamped with the time it arrived. */
  record(event: TrackingEvent): Promise<StoredEvent>;
}

export function createEventService(deps: {
  events: EventsRepository;
  clock: Clock;
  newId?: () => string;
}): EventService {
  const newId = deps.newId ?? randomUUID;
  return {
    async record(event) {
      const receivedAt = deps.clock().toISOString();
      const stored: StoredEvent = {
        id: newId(),
        name: event.name,
        props: event.props && Object.keys(event.props).length > 0 ? event.props : null,
        path: event.path,
        // Normalised to UTC so `at` sorts as text across time zones.
        at: event.at ? new Date(event.at).toISOString() : receivedAt,
        receivedAt,
      };
      await deps.events.insert(stored);
      return stored;
    },
  };
}
