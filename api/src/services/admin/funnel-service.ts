import { FUNNEL_WINDOWS, type AdminFunnel, type FunnelCounts, type FunnelWindow } from '@site/contracts/admin';
import type { FunnelRepository } from '../../db/repositories/funnel-repository';
import type { Clock } from '../../lib/clock';

/** Tracking event names behind each funnel figure. */
const FIGURES: Record<keyof FunnelCounts, string> = {
  analysesStarted: 'analysis_started',
  analysesCompleted: 'analysis_completed',
  analysesErrored: 'analysis_error',
  contactSubmits: 'contact_submitted',
  pageViews: 'page_view',
};
const DAY_MS = 86_400_000;

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
      const [rows, ...tops] = await Promise.all([
        deps.funnel.dailyCounts(Object.values(FIGURES), since),
        ...FUNNEL_WINDOWS.map((days) => deps.funnel.topPages(new Date(today - (days - 1) * DAY_MS).toISOString(), 10)),
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
        return { days, from: new Date(today - (days - 1) * DAY_MS).toISOString(), to: now.toISOString(), ...totals, topPages: tops[i]!, daily };
      });
      return { windows };
    },
  };
}
