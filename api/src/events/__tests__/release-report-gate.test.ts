import { describe, expect, it } from 'vitest';
import { createVisitorTokens, PAGE_TOKEN_LIFETIME_MS } from '../../site/releases/visitor-tokens';
import { ADDRESS_CAP_PER_MINUTE, createReleaseReportGate, TOKEN_CAPS } from '../release-report-gate';
import type { ReleaseEvent } from '../event-service';

const view = (release = '1.0.0'): ReleaseEvent => ({ name: 'remote_view', props: { app: 'blog', release } });
const error = (release = '1.0.0'): ReleaseEvent => ({ name: 'remote_error', props: { app: 'blog', release, kind: 'render' } });

describe('release report gate (issue 51): which browser reports may move a release count', () => {
  let now = Date.parse('2026-06-01T10:00:00.000Z');
  const tokens = createVisitorTokens({ key: 'k'.repeat(32), clock: () => new Date(now) });
  const gate = createReleaseReportGate({ tokens, clock: () => new Date(now) });
  const admit = (events: ReleaseEvent[], token: string | undefined, address = '203.0.113.1') => gate.admit(events, { token, address });

  it('counts nothing without a token, with one signed by another key, or altered', () => {
    const other = createVisitorTokens({ key: 'x'.repeat(32), clock: () => new Date(now) }).issuePageToken({ blog: '1.0.0' }, null);
    const mine = tokens.issuePageToken({ blog: '1.0.0' }, null);
    const [payload] = mine.split('.');
    expect(admit([view(), error()], undefined)).toEqual({ admitted: [], refused: ['no-token', 'no-token'] });
    expect(admit([view()], other).refused).toEqual(['bad-token']);
    expect(admit([view()], `${payload}.${mine.split('.')[1]!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`).refused).toEqual(['bad-token']);
  });

  it('counts only the release the token names, a few times per token, until it expires', () => {
    const token = tokens.issuePageToken({ blog: '1.0.0', marketing: '2.0.0' }, 'bucket-id-of-the-test-1');
    expect(admit([view('1.0.1'), error('0.9.0')], token).refused).toEqual(['other-release', 'other-release']);
    const first = admit([error(), error(), ...Array.from({ length: 7 }, () => view())], token, '203.0.113.2');
    expect(first.admitted).toHaveLength(TOKEN_CAPS.errors + TOKEN_CAPS.views);
    // Replayed: nothing more.
    expect(admit([error(), view()], token, '203.0.113.3').admitted).toEqual([]);
    const later = tokens.issuePageToken({ blog: '1.0.0' }, null);
    now += PAGE_TOKEN_LIFETIME_MS + 1;
    expect(admit([view()], later).refused).toEqual(['bad-token']);
  });

  it('counts at most ADDRESS_CAP_PER_MINUTE reports an address a minute, whatever its tokens', () => {
    now += 60_000;
    let admitted = 0;
    for (let i = 0; i < ADDRESS_CAP_PER_MINUTE + 10; i++) admitted += admit([error()], tokens.issuePageToken({ blog: '1.0.0' }, null), '198.51.100.7').admitted.length;
    expect(admitted).toBe(ADDRESS_CAP_PER_MINUTE);
    expect(admit([error()], tokens.issuePageToken({ blog: '1.0.0' }, null), '198.51.100.8').admitted).toHaveLength(1);
    now += 60_000;
    expect(admit([error()], tokens.issuePageToken({ blog: '1.0.0' }, null), '198.51.100.7').admitted).toHaveLength(1);
  });

  it('names the reporter of what it admits: the same for an address on any instance, an IPv6 address per /64, none when nothing counts', () => {
    now += 60_000;
    const first = admit([error()], tokens.issuePageToken({ blog: '1.0.0' }, null), '192.0.2.10');
    const again = admit([error()], tokens.issuePageToken({ blog: '1.0.0' }, null), '::ffff:192.0.2.10');
    // Another instance with the same key (the database's, or PREVIEW_SECRET's).
    const elsewhere = createReleaseReportGate({ tokens: createVisitorTokens({ key: 'k'.repeat(32), clock: () => new Date(now) }), clock: () => new Date(now) });
    const there = elsewhere.admit([error()], { token: tokens.issuePageToken({ blog: '1.0.0' }, null), address: '192.0.2.10' });
    expect(first.reporter).toMatch(/^[\w-]{22}$/);
    expect([again.reporter, there.reporter]).toEqual([first.reporter, first.reporter]);
    expect(first.reporter).not.toContain('192');
    expect(admit([error()], tokens.issuePageToken({ blog: '1.0.0' }, null), '192.0.2.11').reporter).not.toBe(first.reporter);
    const v6 = admit([error()], tokens.issuePageToken({ blog: '1.0.0' }, null), '2001:db8:1:2::1').reporter;
    expect(admit([error()], tokens.issuePageToken({ blog: '1.0.0' }, null), '2001:db8:1:2:ffff::9').reporter).toBe(v6);
    expect(admit([error()], tokens.issuePageToken({ blog: '1.0.0' }, null), '2001:db8:1:3::1').reporter).not.toBe(v6);
    expect(admit([error()], undefined, '192.0.2.12').reporter).toBeUndefined();
  });

  it('counts an IPv6 /64 as one address toward the per-address cap', () => {
    now += 60_000;
    let admitted = 0;
    for (let i = 0; i < ADDRESS_CAP_PER_MINUTE + 10; i++) admitted += admit([error()], tokens.issuePageToken({ blog: '1.0.0' }, null), `2001:db8:aa:bb::${(i + 1).toString(16)}`).admitted.length;
    expect(admitted).toBe(ADDRESS_CAP_PER_MINUTE);
  });

  it('signs the bucket cookie: a bare, altered or foreign value reads as no bucket', () => {
    const signed = tokens.signBucket('AAAAAAAAAAAAAAAAAAAAAA');
    expect(tokens.readBucket(signed)).toBe('AAAAAAAAAAAAAAAAAAAAAA');
    expect(tokens.readBucket('AAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
    expect(tokens.readBucket(signed.replace(/^A/, 'B'))).toBeUndefined();
    expect(tokens.readBucket(createVisitorTokens({ key: 'x'.repeat(32), clock: () => new Date(now) }).signBucket('AAAAAAAAAAAAAAAAAAAAAA'))).toBeUndefined();
  });
});
