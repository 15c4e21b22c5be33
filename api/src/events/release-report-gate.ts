import type { RemoteName } from '@site/contracts/manifest';
import { clientKey } from '../lib/client-key';
import type { Clock } from '../lib/clock';
import type { ReleaseEvent } from './event-service';

/*
 * Which of a browser's release reports (`remote_view`, `remote_error`) may move the per-release counts that drive
 * /api/health, the errors alert and a canary's automatic rollback (issue 51, item 6). A report counts only
 * - with a valid page-view token (visitor-tokens.ts: signed by this site, not expired),
 * - against the release that token names for its app (the one that browser was given: a report for another release,
 *   or the other side of a canary, moves nothing),
 * - up to TOKEN_CAPS per token (one page load: a few moves inside the site, one error),
 * - up to ADDRESS_CAP counted reports per address a minute (an IPv6 address per /64, as the rate limits count it).
 * So every counted error is a distinct page load's, a script cannot replay one token into a rate, and one address
 * cannot fill a window. Each admitted batch also names its reporter (a keyed hash of the address): browser errors
 * decide nothing until enough distinct reporters sent them (release-errors-service.ts). The caps are kept in memory per instance (bounded, dropped when the token expires): a token
 * replayed against another instance may count there once more, within the same caps.
 */

/** Per token: moves inside the site counted as page views, and errors (one per page load: a rate of failing page loads). */
export const TOKEN_CAPS = { views: 5, errors: 1 } as const;
/** Per address, counted release reports a minute (a person moving fast through the site sends a handful). */
export const ADDRESS_CAP_PER_MINUTE = 20;
/** Tokens and addresses kept track of at once; past this the oldest are forgotten (a flood cannot grow the memory). */
const MAX_TRACKED = 50_000;

/** Reads a page-view token and names a reporter (site/releases/visitor-tokens.ts, passed in by app.ts). */
export interface PageTokenReader {
  readPageToken(token: string | undefined): { ok: true; token: { id: string; releases: Partial<Record<RemoteName, string>>; expiresAt: number } } | { ok: false; reason: string };
  /** A keyed hash of a client key: the same visitor gives the same reporter on every instance, and no address is stored. */
  reporterOf(clientKey: string): string;
}

export type ReportRefusal = 'no-token' | 'bad-token' | 'other-release' | 'token-cap' | 'address-cap';

export interface ReleaseReportGate {
  /** The reports that may count, and who sent them (`reporter`, with any admitted); `refused` says why each other one does not. */
  admit(events: readonly ReleaseEvent[], from: { token?: string | undefined; address: string }): { admitted: ReleaseEvent[]; refused: ReportRefusal[]; reporter?: string };
}

/** A Map used as a bounded LRU with expiry: the oldest insertions go first. */
function boundedSet<V>(max: number) {
  const map = new Map<string, { value: V; until: number }>();
  return {
    get(key: string, now: number): V | undefined {
      const hit = map.get(key);
      if (!hit) return undefined;
      if (hit.until <= now) {
        map.delete(key);
        return undefined;
      }
      return hit.value;
    },
    set(key: string, value: V, until: number): void {
      map.delete(key);
      map.set(key, { value, until });
      while (map.size > max) map.delete(map.keys().next().value!);
    },
  };
}

export function createReleaseReportGate(deps: { tokens: PageTokenReader; clock: Clock; addressCap?: number }): ReleaseReportGate {
  const used = boundedSet<{ views: number; errors: number }>(MAX_TRACKED);
  const addresses = boundedSet<{ count: number }>(MAX_TRACKED);
  const addressCap = deps.addressCap ?? ADDRESS_CAP_PER_MINUTE;
  return {
    admit(events, from) {
      const refused: ReportRefusal[] = [];
      const read = deps.tokens.readPageToken(from.token);
      if (!read.ok) return { admitted: [], refused: events.map(() => (from.token ? 'bad-token' : 'no-token')) };
      const now = deps.clock().getTime();
      const token = read.token;
      const counts = used.get(token.id, now) ?? { views: 0, errors: 0 };
      const minute = Math.floor(now / 60_000);
      const client = clientKey(from.address);
      const addressKey = `${client}\n${minute}`;
      const address = addresses.get(addressKey, now) ?? { count: 0 };
      const admitted: ReleaseEvent[] = [];
      for (const event of events) {
        const { app, release } = event.props as { app: RemoteName; release: string };
        if (token.releases[app] !== release) refused.push('other-release');
        else if (event.name === 'remote_view' ? counts.views >= TOKEN_CAPS.views : counts.errors >= TOKEN_CAPS.errors) refused.push('token-cap');
        else if (address.count >= addressCap) refused.push('address-cap');
        else {
          if (event.name === 'remote_view') counts.views += 1;
          else counts.errors += 1;
          address.count += 1;
          admitted.push(event);
        }
      }
      // Kept until the token could no longer be used anyway.
      used.set(token.id, counts, token.expiresAt + 60_000);
      addresses.set(addressKey, address, (minute + 1) * 60_000);
      return { admitted, refused, ...(admitted.length > 0 ? { reporter: deps.tokens.reporterOf(client) } : {}) };
    },
  };
}
