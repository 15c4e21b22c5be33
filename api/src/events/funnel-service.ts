import { FUNNEL_WINDOWS, type AdminFunnel, type FunnelCounts, type FunnelReferrers, type FunnelWindow } from '@site/contracts/admin';
import { REFERRER_CLASSES, type ReferrerClass } from '@site/contracts/events';
import type { DayTally, FunnelRepository, RawRange } from './funnel-repository';
import type { Clock } from '../lib/clock';

/**
 * Tracking event names behind each funnel figure but the contact step. Contact messages are the leads stored
 * (contact_messages), not the browser's `contact_submitted` events: a lead sent to POST /api/contact by n8n or another
 * API client sends no event, and a browser that blocks tracking sends none either, yet the message is in the inbox.
 */
const FIGURES: Record<Exclude<keyof FunnelCounts, 'contactSubmits'>, string> = {
  analysesStarted: 'analysis_started',
  analysesCompleted: 'analysis_completed',
  analysesErrored: 'analysis_error',
  pageViews: 'page_view',
};
const NAMES = Object.values(FIGURES);
const NAME_TO_FIGURE = new Map(Object.entries(FIGURES).map(([figure, name]) => [name, figure as keyof FunnelCounts]));
const DAY_MS = 86_400_000;
const TOP_PAGES = 10;

/** The referrer class of a page view's stored props text, if it names one. */
function referrerOf(props: string): ReferrerClass | undefined {
  if (props === '') return undefined;
  try {
    const referrer = (JSON.parse(props) as { referrer?: unknown }).referrer;
    return (REFERRER_CLASSES as readonly unknown[]).includes(referrer) ? (referrer as ReferrerClass) : undefined;
  } catch {
    return undefined;
  }
}

const emptyCounts = (): FunnelCounts => ({ analysesStarted: 0, analysesCompleted: 0, analysesErrored: 0, contactSubmits: 0, pageViews: 0 });
const emptyReferrers = (): FunnelReferrers => ({ direct: 0, internal: 0, search: 0, social: 0, other: 0 });
const byViews = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** What a set of tallies adds to one window: figures per day, page views per path (most viewed first) and per referrer. */
interface WindowPart {
  byDay: Map<string, FunnelCounts>;
  paths: Map<string, number>;
  /** `paths`, most viewed first (then by path). */
  ranked: [string, number][];
  referrers: FunnelReferrers;
}

function windowPart(tallies: readonly DayTally[], fromDay: string, rank: boolean): WindowPart {
  const part: WindowPart = { byDay: new Map(), paths: new Map(), ranked: [], referrers: emptyReferrers() };
  for (const t of tallies) {
    if (t.day < fromDay) continue;
    const figure = NAME_TO_FIGURE.get(t.name);
    if (!figure) continue;
    const counts = part.byDay.get(t.day) ?? emptyCounts();
    counts[figure] += t.count;
    part.byDay.set(t.day, counts);
    if (t.name !== FIGURES.pageViews) continue;
    part.paths.set(t.path, (part.paths.get(t.path) ?? 0) + t.count);
    const referrer = referrerOf(t.props);
    if (referrer) part.referrers[referrer] += t.count;
  }
  if (rank) part.ranked = [...part.paths].sort(byViews);
  return part;
}

/**
 * The most viewed paths of rolled-up days (ranked) and raw ones (few: a day's) together, exactly: a path without raw
 * views keeps its rolled-up count, so the best of those are the first of `rolled.ranked` that have none.
 */
function topPages(rolled: WindowPart, raw: WindowPart): { path: string; views: number }[] {
  const candidates = new Map<string, number>();
  for (const [path, views] of raw.paths) candidates.set(path, views + (rolled.paths.get(path) ?? 0));
  let others = 0;
  for (const [path, views] of rolled.ranked) {
    if (others === TOP_PAGES) break;
    if (candidates.has(path)) continue;
    candidates.set(path, views);
    others += 1;
  }
  return [...candidates]
    .sort(byViews)
    .slice(0, TOP_PAGES)
    .map(([path, views]) => ({ path, views }));
}

export interface FunnelService {
  /** The last 7 and 30 days (whole UTC days, today included). */
  summary(): Promise<AdminFunnel>;
}

/**
 * The funnel reads the daily aggregates of the days the retention job rolled up (every complete day, soon after it ends)
 * and raw events of the others: today, and a day not rolled up yet. A rolled-up day never changes, so what the rolled-up
 * days of the windows add up to is kept in memory while the set of those days stays the same (a day rolled up, or the
 * windows moving at midnight, makes a new set): a request reads the list of rolled-up days (at most 30 rows) and one
 * day of raw events, whatever the history.
 *
 * Contact messages: the leads stored in the windows' days, counted per UTC day by one range read of the created_at
 * index on each request (never kept in memory: a lead arrives at any time, and the inbox beside the funnel shows it at
 * once). For every day, old or new, the figure is the messages the inbox holds now, and never the browser's events: the
 * two are not mixed, so no day counts a lead twice or a browser's submit that stored nothing. Retention: raw events
 * are deleted after RETENTION_EVENT_DAYS (90) and their daily rollups kept, but the retention job deletes no contact
 * message, and the longest window (30 days) is inside the events' 90; should leads ever be deleted (by hand, or by a
 * rule added later), the days they were in count fewer, as the inbox does, rather than falling back to events.
 */
export function createFunnelService(deps: { funnel: FunnelRepository; clock: Clock }): FunnelService {
  let memo: { key: string; parts: WindowPart[] } | undefined;
  return {
    async summary() {
      const now = deps.clock();
      const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const longest = Math.max(...FUNNEL_WINDOWS);
      const windowStart = (days: number) => new Date(today - (days - 1) * DAY_MS).toISOString();
      const rolled = new Set(await deps.funnel.rolledDays(dayOf(today - (longest - 1) * DAY_MS), dayOf(today - DAY_MS)));
      // Raw events of the days not rolled up, as ranges of whole days (usually one: from today, open-ended, as a
      // browser's `at` may be a little ahead of the server's clock).
      const ranges: RawRange[] = [];
      for (let d = today - (longest - 1) * DAY_MS; d <= today; d += DAY_MS) {
        if (rolled.has(dayOf(d))) continue;
        const last = ranges.at(-1);
        if (last && last.to === new Date(d).toISOString()) last.to = new Date(d + DAY_MS).toISOString();
        else ranges.push({ from: new Date(d).toISOString(), to: new Date(d + DAY_MS).toISOString() });
      }
      const open = ranges.at(-1);
      if (open?.to === new Date(today + DAY_MS).toISOString()) delete open.to;

      const key = `${dayOf(today)}|${[...rolled].join(',')}`;
      const rolledParts = async () => {
        if (memo?.key === key) return memo.parts;
        const tallies = await deps.funnel.rolledTallies([...rolled], NAMES);
        const parts = FUNNEL_WINDOWS.map((days) => windowPart(tallies, windowStart(days).slice(0, 10), true));
        memo = { key, parts };
        return parts;
      };
      const [oldParts, rawTallies, leads] = await Promise.all([
        rolledParts(),
        deps.funnel.rawTallies(ranges, NAMES),
        deps.funnel.leadsByDay(windowStart(longest), new Date(today + DAY_MS).toISOString()),
      ]);
      const leadsOn = new Map(leads.map((l) => [l.day, l.count]));

      const windows: FunnelWindow[] = FUNNEL_WINDOWS.map((days, i) => {
        const old = oldParts[i]!;
        const fresh = windowPart(rawTallies, windowStart(days).slice(0, 10), false);
        const daily = Array.from({ length: days }, (_, d) => {
          const date = dayOf(today - (days - 1 - d) * DAY_MS);
          return { date, ...(fresh.byDay.get(date) ?? old.byDay.get(date) ?? emptyCounts()), contactSubmits: leadsOn.get(date) ?? 0 };
        });
        const totals = emptyCounts();
        for (const day of daily) for (const k of Object.keys(totals) as (keyof FunnelCounts)[]) totals[k] += day[k];
        const referrers = emptyReferrers();
        for (const k of REFERRER_CLASSES) referrers[k] = old.referrers[k] + fresh.referrers[k];
        return { days, from: windowStart(days), to: now.toISOString(), ...totals, topPages: topPages(old, fresh), referrers, daily };
      });
      return { windows };
    },
  };
}
