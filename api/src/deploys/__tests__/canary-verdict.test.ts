import { describe, expect, it } from 'vitest';
import { canaryVerdict, DEFAULT_CANARY_RULES } from '../canary-watch';
import type { Canary } from '../deployer-port';
import { canarySlot, createReleaseChooser } from '../../site/releases/release-choice';
import { createPreviewTokens } from '../../site/releases/preview-tokens';

/*
 * The canary's rule (rolled back at >= 2% and >= 3x the served release's rate, over >= 50 of its page views) at its
 * edges, and the release choice of one request: sticky per bucket, a preview winning over a canary.
 */

const counts = (pageViews: number, errors: number) => ({ pageViews, renderErrors: errors, clientErrors: 0, rate: pageViews ? errors / pageViews : null });

describe('canaryVerdict', () => {
  it.each([
    ['2% over 50 views against a served release without errors', counts(50, 1), counts(1000, 0), true],
    ['fewer than 50 page views say nothing yet', counts(49, 49), counts(1000, 0), false],
    ['1.9% is under 2%', counts(1000, 19), counts(1000, 0), false],
    ['2.5% is only 2.5 times 1%', counts(1000, 25), counts(1000, 10), false],
    ['3% is 3 times 1%', counts(1000, 30), counts(1000, 10), true],
    ['0.5% like the served release', counts(1000, 5), counts(1000, 5), false],
    ['every page failing, the served release unseen', counts(200, 200), counts(0, 0), true],
  ])('%s', (_what, canary, served, rollBack) => {
    expect(canaryVerdict(canary, served, DEFAULT_CANARY_RULES).rollBack).toBe(rollBack);
  });

  it('says why with both rates and counts', () => {
    expect(canaryVerdict(counts(60, 6), counts(500, 2), DEFAULT_CANARY_RULES).why).toBe(
      "error rate 10% (6 server render errors and 0 browser errors from 0 visitors in 60 page views) against 0.4% for the served release (2 errors in 500 page views); the threshold is at least 2% and 3 times the served release's rate over at least 50 page views, browser errors counting once at least 5 visitors reported them",
    );
  });

  // Browser errors alone (issue 51): they count once at least `minReporters` distinct visitors reported them.
  const browser = (pageViews: number, errors: number, reporters: number) => ({ pageViews, renderErrors: 0, clientErrors: errors, clientReporters: reporters, rate: null });

  it.each([
    ['every canary page view reported failing, by one visitor', browser(60, 60, 1), false],
    ['the same, by four visitors', browser(60, 60, 4), false],
    ['the same, by five visitors', browser(60, 60, 5), true],
    ['reports without a reporter (older counts) never decide', { pageViews: 60, renderErrors: 0, clientErrors: 60, rate: 1 }, false],
    ['one server render error with the few visitors’ reports: 1 error in 60 is under 2%', { ...browser(60, 60, 2), renderErrors: 1 }, false],
    ['server render errors decide without any browser report', { ...browser(60, 0, 0), renderErrors: 2 }, true],
  ])('%s', (_what, canary, rollBack) => {
    expect(canaryVerdict(canary, counts(1000, 0), DEFAULT_CANARY_RULES).rollBack).toBe(rollBack);
  });

  it('a few visitors’ reports against the served release do not keep a failing canary in', () => {
    // The canary fails for 6 distinct visitors; one address floods the served release with reports: not counted.
    expect(canaryVerdict(browser(100, 10, 6), browser(1000, 900, 1), DEFAULT_CANARY_RULES).rollBack).toBe(true);
    expect(canaryVerdict(browser(100, 10, 6), browser(1000, 900, 5), DEFAULT_CANARY_RULES).rollBack).toBe(false);
  });

  it('says which browser errors were left out and why', () => {
    expect(canaryVerdict(browser(60, 21, 2), counts(500, 0), DEFAULT_CANARY_RULES).why).toContain(
      'error rate 0% (0 server render errors and 21 browser errors from 2 visitors (not counted: fewer than 5 visitors) in 60 page views)',
    );
    expect(canaryVerdict(browser(60, 21, 2), counts(500, 0), { ...DEFAULT_CANARY_RULES, minReporters: 2 }).why).toContain('error rate 35% (0 server render errors and 21 browser errors from 2 visitors in 60 page views)');
  });
});

describe('createReleaseChooser with a canary', () => {
  const previews = createPreviewTokens({ secret: 'a preview secret of at least thirty-two characters', clock: () => new Date() });
  let canaries: Canary[] = [];
  let drawn = 0;
  const choose = createReleaseChooser({ previews, canaries: () => canaries, newBucket: () => `bucket-number-${String(++drawn).padStart(8, '0')}` });
  const request = (cookies: Record<string, string>) => ({ cookies: { get: (name: string) => cookies[name] } });
  const canary = (percent: number): Canary => ({ id: 'can_fixed', app: 'blog', version: '2.0.0', current: '1.0.0', percent, startedAt: '2026-06-01T10:00:00.000Z', promoteAfter: null, by: 'blog CI' });

  it('without a canary or a preview cookie, reads and sets nothing', () => {
    canaries = [];
    const read: string[] = [];
    const choice = choose({ cookies: { get: (name) => void read.push(name) as undefined } });
    expect(choice.overrides).toEqual({});
    expect(choice.newBucket).toBeUndefined();
    expect(read).toEqual(['site_preview']);
  });

  it('puts a bucket in the canary by its slot, the same every time; draws a bucket for a visitor without one (or with a malformed one)', () => {
    canaries = [canary(30)];
    const buckets = Array.from({ length: 400 }, (_, i) => `visitor-bucket-${String(i).padStart(6, '0')}`);
    const inCanary = buckets.filter((b) => choose(request({ site_bucket: b })).overrides.blog?.version === '2.0.0');
    expect(inCanary.length).toBe(buckets.filter((b) => canarySlot('can_fixed', b) < 30).length);
    for (const b of buckets.slice(0, 50)) expect(choose(request({ site_bucket: b })).overrides.blog).toEqual(inCanary.includes(b) ? { version: '2.0.0', why: 'canary' } : undefined);
    for (const b of buckets) {
      const choice = choose(request({ site_bucket: b }));
      expect([choice.canaries, choice.newBucket]).toEqual([true, undefined]);
    }
    const fresh = choose(request({ site_bucket: 'short' }));
    expect(fresh.newBucket).toMatch(/^bucket-number-\d{8}$/);
    // Raising the share keeps everyone already in it.
    canaries = [canary(60)];
    for (const b of inCanary) expect(choose(request({ site_bucket: b })).overrides.blog?.why).toBe('canary');
  });

  it('a preview of the same app wins over the canary', () => {
    canaries = [canary(99)];
    const { token } = previews.issue('blog', '3.0.0-staged');
    const bucket = Array.from({ length: 100 }, (_, i) => `visitor-bucket-${String(i).padStart(6, '0')}`).find((b) => canarySlot('can_fixed', b) < 99)!;
    expect(choose(request({ site_bucket: bucket })).overrides.blog?.why).toBe('canary');
    expect(choose(request({ site_bucket: bucket, site_preview: token })).overrides).toEqual({ blog: { version: '3.0.0-staged', why: 'preview' } });
  });
});
