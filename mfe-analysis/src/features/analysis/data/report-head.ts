import type { PageMeta } from '@site/contracts/manifest';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Search and link-preview metadata of a shared report, from the stored report the server loaded. Reports are
 * personal results, so they are never indexed (`noindex`); the canonical link is the report's own path.
 */
export function reportHead(params: Record<string, string>, report: unknown): PageMeta {
  const path = `/free-analysis/report/${params.id ?? ''}`;
  const info = isRecord(report) && isRecord(report.businessInfo) ? report.businessInfo : {};
  const name = typeof info.businessName === 'string' && info.businessName.trim() ? info.businessName.trim() : 'Business';
  const location = typeof info.location === 'string' && info.location && info.location !== 'Unknown Location' ? ` in ${info.location}` : '';
  const scores = isRecord(report) && isRecord(report.scores) ? report.scores : {};
  const overall = isRecord(scores.overall) && typeof scores.overall.score === 'number' ? Math.round(scores.overall.score) : null;
  const description =
    `Growth scorecard of ${name}${location}` +
    (overall !== null ? `: overall ${overall}/100 across visibility, reputation, profile, website, content and competition` : '') +
    ', with an AI readiness assessment and an action plan.';
  return {
    path,
    title: `${name} growth scorecard | Tri-Valley AI Automation`,
    description,
    noindex: true,
    canonical: path,
  };
}
