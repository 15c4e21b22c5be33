import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminSessionsRepository } from '../../../db/repositories/admin-sessions-repository';
import { testBackends, type TestDatabase } from '../../../test-support/databases';
import { createAdminAuthService } from '../auth-service';
import { createPasswordVerifier, hashPassword, parsePasswordHash, verifyPassword } from '../password';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('password hashes', () => {
  it('round-trips the documented format and refuses malformed or unsafe ones', async () => {
    const hash = await hashPassword('s3cret', { N: 2 ** 12, r: 8, p: 1 });
    const parsed = parsePasswordHash(hash)!;
    expect(parsed).toMatchObject({ N: 4096, r: 8, p: 1 });
    expect(await verifyPassword('s3cret', parsed)).toBe(true);
    expect(await verifyPassword('s3cret ', parsed)).toBe(false);
    for (const bad of ['', 'plain', 'scrypt$4096$8$1$abc', 'bcrypt$4096$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA==', 'scrypt$1000$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA==', 'scrypt$16$8$1$c2FsdHNhbHQ=$aGFzaGhhc2hoYXNoaGFzaA==']) {
      expect(parsePasswordHash(bad)).toBeUndefined();
    }
    expect(() => createPasswordVerifier({ passwordHash: 'not-a-hash' })).toThrow(/ADMIN_PASSWORD_HASH is not in the format/);
  });

  it('accepts what `npm run hash-password` prints (password piped on stdin)', async () => {
    const script = path.resolve(import.meta.dirname, '../../../../../scripts/hash-password.mjs');
    const out = spawnSync(process.execPath, [script], { input: 'piped pässword\n', encoding: 'utf8' });
    expect(out.status).toBe(0);
    const parsed = parsePasswordHash(out.stdout.trim())!;
    expect(parsed).toMatchObject({ N: 2 ** 15, r: 8, p: 1 });
    expect(await verifyPassword('piped pässword', parsed)).toBe(true);
    const empty = spawnSync(process.execPath, [script], { input: '', encoding: 'utf8' });
    expect(empty.status).toBe(1);
    expect(empty.stdout).toBe('');
  });

  it('checks a plain ADMIN_PASSWORD through the same scrypt compare', async () => {
    const verifier = createPasswordVerifier({ password: 'plain secret' });
    expect(verifier.configured).toBe(true);
    expect(await verifier.verify('plain secret')).toBe(true);
    expect(await verifier.verify('plain secre')).toBe(false);
    expect(await verifier.verify('')).toBe(false);
    expect(createPasswordVerifier({}).configured).toBe(false);
  });
});

describe.each(testBackends())('admin sessions ($name)', (backend) => {
  let db: TestDatabase;
  let now = Date.parse('2026-05-04T09:00:00.000Z');
  beforeAll(async () => {
    db = await backend.open();
  });
  afterAll(() => db.dispose());

  const service = (limits: { maxAgeMs?: number; idleMs?: number } = {}) =>
    createAdminAuthService({
      sessions: createAdminSessionsRepository(db.handle.db),
      verifier: { configured: true, verify: async (p) => p === 'right' },
      clock: () => new Date(now),
      touchEveryMs: 0,
      ...limits,
    });

  it('expires by inactivity even while young', async () => {
    const auth = service({ idleMs: HOUR, maxAgeMs: 24 * HOUR });
    const { token } = await auth.login('right', '127.0.0.1');
    now += 59 * MINUTE;
    expect(await auth.authenticate(token)).toBeDefined();
    now += HOUR - 1;
    expect(await auth.authenticate(token)).toBeDefined();
    now += HOUR;
    expect(await auth.authenticate(token)).toBeUndefined();
    // Gone from the store, not only refused.
    expect(await auth.authenticate(token)).toBeUndefined();
  });

  it('expires by age even while active, and reports when it will end', async () => {
    const auth = service({ idleMs: HOUR, maxAgeMs: 3 * HOUR });
    const { token, session } = await auth.login('right', '127.0.0.1');
    expect(session.expiresAt).toBe(new Date(now + HOUR).toISOString());
    for (let i = 0; i < 5; i++) {
      now += 30 * MINUTE;
      expect(await auth.authenticate(token)).toBeDefined();
    }
    now += 30 * MINUTE;
    expect(await auth.authenticate(token)).toBeUndefined();
  });

  it('purges expired sessions and refuses unknown tokens', async () => {
    const auth = service();
    const { token } = await auth.login('right', '10.0.0.1');
    expect(await auth.authenticate(`${token}x`)).toBeUndefined();
    expect(await auth.authenticate(undefined)).toBeUndefined();
    now += 25 * HOUR;
    await auth.purge();
    const left = await db.handle.db.selectFrom('admin_sessions').selectAll().execute();
    expect(left).toEqual([]);
  });
});
