import { FUNNEL_WINDOWS, type AdminFunnel, type FunnelCounts, type FunnelReferrers, type FunnelWindow } from '@site/contracts/admin';
import { REFERRER_CLASSES, type ReferrerClass } from '@site/contracts/events';
import type { FunnelRepository } from './funnel-repository';
import type { Clock } from '../lib/clock';

/** Tracking event names behind each funnel figure. */
const FIGURES: Record<keyof FunnelCounts, string> = {
  analysesStarted: 'analysis_started',
  analysesCompleted: 'analysis_completed',
  analysesErrored: 'analysis_error',
  contactSubmits: 'contact_submitted',
  pageViews: 'page_view',
};
const DAY_MS = 86_400_000;

/** Page views per referrer class, from the repository's counts per stored props text. */
function referrersOf(rows: { props: string | null; views: number }[]): FunnelReferrers {
  const counts: FunnelReferrers = { direct: 0, internal: 0, search: 0, social: 0, other: 0 };
  for (const row of rows) {
    let referrer: unknown;
    try {
      referrer = row.props === null ? undefined : (JSON.parse(row.props) as { referrer?: unknown }).referrer;
    } catch {
      continue;
    }
    if ((REFERRER_CLASSES as readonly unknown[]).includes(referrer)) counts[referrer as ReferrerClass] += row.views;
  }
  return counts;
}

const emptyCounts = (): FunnelCounts => ({ analysesStarted: 0, analysesCompleted: 0, analysesErrored: 0, contactSubmits: 0, pageViews: 0 });

export interface FunnelService {
  /** The last 7 and 30 days (whole UTC days, today included). */
  summary(): Promise<AdminFunnel>;
}

export function createFunnelService(deps: { funnel: FunnelRepository; clock: Clock }): FunnelService {
  return {
    async summary() {
      const now = deps.clock();
      const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      const longest = Math.max(...FUNNEL_WINDOWS);
      const since = new Date(today - (longest - 1) * DAY_MS).toISOString();
      const nameToFigure = new Map(Object.entries(FIGURES).map(([figure, name]) => [name, figure as keyof FunnelCounts]));
      const windowStart = (days: number) => new Date(today - (days - 1) * DAY_MS).toISOString();
      const [rows, tops, referrers] = await Promise.all([
        deps.funnel.dailyCounts(Object.values(FIGURES), since),
        Promise.all(FUNNEL_WINDOWS.map((days) => deps.funnel.topPages(windowStart(days), 10))),
        Promise.all(FUNNEL_WINDOWS.map((days) => deps.funnel.pageViewsByProps(windowStart(days)).then(referrersOf))),
      ]);
      const byDay = new Map<string, FunnelCounts>();
      for (const r of rows) {
        const figure = nameToFigure.get(r.name);
        if (!figure) continue;
        const counts = byDay.get(r.day) ?? emptyCounts();
        counts[figure] += r.count;
        byDay.set(r.day, counts);
      }
      const windows: FunnelWindow[] = FUNNEL_WINDOWS.map((days, i) => {
        const daily = Array.from({ length: days }, (_, d) => {
          const date = new Date(today - (days - 1 - d) * DAY_MS).toISOString().slice(0, 10);
          return { date, ...(byDay.get(date) ?? emptyCounts()) };
        });
        const totals = emptyCounts();
        for (const day of daily) for (const key of Object.keys(totals) as (keyof FunnelCounts)[]) totals[key] += day[key];
        return { days, from: windowStart(days), to: now.toISOString(), ...totals, topPages: tops[i]!, referrers: referrers[i]!, daily };
      });
      return { windows };
    },
  };
}
