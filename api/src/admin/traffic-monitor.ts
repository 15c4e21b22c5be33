import ipaddr from 'ipaddr.js';
import type { AdminTraffic, TrafficClass, TrafficEntry } from '@site/contracts/admin';
import type { Clock } from '../lib/clock';

/** Recent requests per client address, in memory: the last hour, at most 2000 addresses. */
export const TRAFFIC_WINDOW_MS = 60 * 60_000;
const MAX_ADDRESSES = 2000;

/** Paths only scanners ask for: this site has no PHP, WordPress, dotfiles or admin consoles of other products. */
const PROBE_PATH = /\.php\d?$|\/wp-(?:admin|login|content|includes)|\/\.(?:env|git|aws|ssh|htaccess|DS_Store)|\/phpmyadmin|\/cgi-bin\/|\/actuator|\/\.well-known\/security\.txt\.php|\/boaform|\/HNAP1/i;

/** Ranges of this host, the LAN and container networks: legitimate traffic, never threats (spec section 9). */
const LEGITIMATE_RANGES: Record<string, string> = {
  loopback: 'loopback',
  private: 'private range',
  linkLocal: 'link-local',
  uniqueLocal: 'private range (IPv6 unique local)',
  carrierGradeNat: 'shared address space (container/NAT)',
  unspecified: 'local',
};

interface Counters {
  address: string;
  requests: number;
  clientErrors: number;
  serverErrors: number;
  rateLimited: number;
  probes: number;
  webhookRejects: number;
  firstSeen: number;
  lastSeen: number;
  flagged: boolean;
}

export interface TrafficMonitor {
  /** Counts one answered request. */
  record(request: { address: string; status: number; path: string }): void;
  snapshot(): AdminTraffic;
}

/** The class of an address: legitimate for private/local/container ranges, else by the rules over its requests. */
export function classifyAddress(address: string): { legitimate: boolean; reason: string } {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    const bare = address.replace(/^\[|\]$/g, '');
    // Without the zone id (`fe80::1%eth0`).
    parsed = ipaddr.process(bare.includes('%') ? bare.slice(0, bare.indexOf('%')) : bare);
  } catch {
    return { legitimate: false, reason: 'unparsable address' };
  }
  const range = parsed.range();
  const reason = LEGITIMATE_RANGES[range];
  return reason ? { legitimate: true, reason } : { legitimate: false, reason: range === 'unicast' ? 'public address' : range };
}

/** Why an address's requests look hostile, or undefined when they do not. */
export function suspicion(c: Pick<Counters, 'requests' | 'clientErrors' | 'serverErrors' | 'rateLimited' | 'probes' | 'webhookRejects'>): string | undefined {
  if (c.probes >= 3) return `probed ${c.probes} scanner paths`;
  if (c.webhookRejects >= 3) return `${c.webhookRejects} webhook deliveries with a bad signature`;
  if (c.rateLimited >= 5) return `rate limited ${c.rateLimited} times`;
  if (c.clientErrors >= 20 && c.clientErrors / c.requests >= 0.5) return `many 4xx answers (${c.clientErrors} of ${c.requests})`;
  return undefined;
}

export function createTrafficMonitor(options: { clock: Clock; onSuspicious?: (entry: TrafficEntry) => void }): TrafficMonitor {
  const byAddress = new Map<string, Counters>();

  const prune = (now: number) => {
    for (const [key, c] of byAddress) {
      if (c.lastSeen > now - TRAFFIC_WINDOW_MS) break; // ordered by last seen (re-inserted on each request)
      byAddress.delete(key);
    }
    while (byAddress.size > MAX_ADDRESSES) byAddress.delete(byAddress.keys().next().value!);
  };

  const toEntry = (c: Counters): TrafficEntry => {
    const cls = classifyAddress(c.address);
    const why = suspicion(c);
    const classification: TrafficClass = cls.legitimate ? 'legitimate' : why ? 'suspicious' : 'normal';
    return {
      address: c.address,
      classification,
      reason: cls.legitimate ? cls.reason : (why ?? cls.reason),
      requests: c.requests,
      clientErrors: c.clientErrors,
      serverErrors: c.serverErrors,
      rateLimited: c.rateLimited,
      firstSeen: new Date(c.firstSeen).toISOString(),
      lastSeen: new Date(c.lastSeen).toISOString(),
    };
  };

  return {
    record({ address, status, path }) {
      const now = options.clock().getTime();
      const key = address || 'unknown';
      const c = byAddress.get(key) ?? {
        address: key,
        requests: 0,
        clientErrors: 0,
        serverErrors: 0,
        rateLimited: 0,
        probes: 0,
        webhookRejects: 0,
        firstSeen: now,
        lastSeen: now,
        flagged: false,
      };
      c.requests += 1;
      if (status === 429) c.rateLimited += 1;
      else if (status >= 400 && status < 500) c.clientErrors += 1;
      if (status >= 500) c.serverErrors += 1;
      if (PROBE_PATH.test(path)) c.probes += 1;
      if (path === '/api/webhook' && status === 401) c.webhookRejects += 1;
      c.lastSeen = now;
      byAddress.delete(key);
      byAddress.set(key, c);
      prune(now);
      if (!c.flagged && suspicion(c) && !classifyAddress(key).legitimate) {
        c.flagged = true;
        options.onSuspicious?.(toEntry(c));
      }
    },

    snapshot() {
      const now = options.clock().getTime();
      prune(now);
      const entries = [...byAddress.values()].map(toEntry);
      const order: Record<TrafficClass, number> = { suspicious: 0, normal: 1, legitimate: 2 };
      entries.sort((a, b) => order[a.classification] - order[b.classification] || b.requests - a.requests || a.address.localeCompare(b.address));
      return {
        windowMinutes: TRAFFIC_WINDOW_MS / 60_000,
        entries,
        totals: {
          addresses: entries.length,
          requests: entries.reduce((n, e) => n + e.requests, 0),
          suspicious: entries.filter((e) => e.classification === 'suspicious').length,
          legitimate: entries.filter((e) => e.classification === 'legitimate').length,
        },
      };
    },
  };
}
