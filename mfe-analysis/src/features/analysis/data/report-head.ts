import type { PageMeta } from '@site/contracts/manifest';
import { reportIsSample } from '../../../lib/report-links';

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
  const graded = isRecord(scores.overall) && scores.overall.verified !== false && typeof scores.overall.score === 'number';
  const overall = graded && isRecord(scores.overall) ? Math.round(scores.overall.score as number) : null;
  // A link preview must not quote a made-up score as the business's: a sample says it is one.
  const sample = reportIsSample(report);
  const description =
    `${sample ? 'Sample growth scorecard' : 'Growth scorecard'} of ${name}${location}` +
    (overall !== null ? `: ${sample ? 'sample ' : ''}overall ${overall}/100 across visibility, reputation, profile, website, content and competition` : '') +
    (sample ? ', built from sample data' : '') +
    ', with an AI readiness assessment and an action plan.';
  return {
    path,
    title: `${name} growth scorecard | Tri-Valley AI Automation`,
    description,
    noindex: true,
    canonical: path,
  };
}
