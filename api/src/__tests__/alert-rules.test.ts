import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../test-support/built-site';
import { startTestServer, type TestServer } from '../test-support/test-server';

// The Prometheus alert rules of ops/prometheus/alerts.yml (docs/operating.md) name only metrics that
// GET /metrics exposes: a rule on a renamed or missing metric never fires, and nothing else would say so.

const TOKEN = 'metrics-token-for-the-alert-rules-test';

/** PromQL words that are not metric names: functions, aggregations, keywords. */
const PROMQL_WORDS = new Set([
  'absent', 'changes', 'rate', 'irate', 'increase', 'delta', 'sum', 'count', 'avg', 'min', 'max', 'histogram_quantile',
  'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'offset', 'bool', 'time', 'vector',
  'scalar', 'clamp_min', 'clamp_max', 'abs', 'topk', 'bottomk', 'quantile_over_time', 'avg_over_time', 'max_over_time', 'min_over_time',
]);

/**
 * The metric names an expression reads: its identifiers, once label matchers (`{...}`), grouping clauses
 * (`by (...)`), range selectors (`[5m]`), strings and numbers are taken out, and PromQL's own words left aside.
 */
function metricNamesOf(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^{}]*\}/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^()]*\)/g, ' ')
    .replace(/\[[^[\]]*\]/g, ' ')
    .replace(/(?<![\w:])\d+(?:\.\d+)?(?:e\d+)?/gi, ' ');
  const names = stripped.match(/[a-z_:][\w:]*/gi) ?? [];
  return [...new Set(names.filter((n) => !PROMQL_WORDS.has(n)))];
}

describe('ops/prometheus/alerts.yml', () => {
  let server: TestServer;
  let exposed: Set<string>;
  beforeAll(async () => {
    server = await startTestServer({ env: { METRICS_TOKEN: TOKEN } });
    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    exposed = new Set<string>();
    // Every family is declared by a TYPE line, samples or not; a histogram is read as its _bucket, _sum and _count.
    for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      exposed.add(name!);
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exposed.add(`${name}${suffix}`);
    }
  });
  afterAll(() => server?.close());

  it('reads metric names out of PromQL', () => {
    expect(metricNamesOf('sum by (le, remote) (rate(site_x_bucket{route!~"page|static"}[5m])) > 0.15 and absent(up{job="a"})')).toEqual([
      'site_x_bucket',
      'up',
    ]);
  });

  it('is a rules file whose every expression names only metrics the app exposes', async () => {
    const file = parse(await readFile(path.join(REPO_ROOT, 'ops/prometheus/alerts.yml'), 'utf8')) as {
      groups: Array<{ name: string; rules: Array<{ alert: string; expr: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> }> }>;
    };
    const rules = file.groups.flatMap((g) => g.rules);
    expect(rules.length).toBeGreaterThanOrEqual(10);
    const used = new Set<string>();
    for (const rule of rules) {
      expect(rule.alert, JSON.stringify(rule)).toMatch(/^[A-Z]\w+$/);
      expect(typeof rule.expr).toBe('string');
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.labels?.severity, rule.alert).toMatch(/^(page|ticket|info)$/);
      if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smh]$/);
      const names = metricNamesOf(rule.expr);
      expect(names.length, rule.alert).toBeGreaterThan(0);
      for (const name of names) {
        expect(exposed.has(name), `${rule.alert} reads ${name}, which /metrics does not expose`).toBe(true);
        used.add(name);
      }
    }
    // The rules cover what the issue asks to watch.
    for (const family of ['site_http_requests_total', 'site_outbox_oldest_age_seconds', 'site_admin_login_failures_total', 'nodejs_eventloop_lag_p99_seconds', 'site_remote_release']) {
      expect(used.has(family), family).toBe(true);
    }
  });
});
