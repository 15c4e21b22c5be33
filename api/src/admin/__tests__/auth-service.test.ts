import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_MAX_FAILURES } from '@site/contracts/admin';
import { createAdminSessionsRepository } from '../admin-sessions-repository';
import { RateLimitedError, UnauthorizedError } from '../../lib/domain-errors';
import { createLogger } from '../../lib/logger';
import type { RateLimitStore } from '../../lib/rate-limit-counter';
import { closeRedis, connectRedis } from '../../lib/redis';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createAdminAuthService } from '../auth-service';
import { createPasswordVerifier, hashPassword, parsePasswordHash, verifyPassword, type PasswordVerifier } from '../password';

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
    const script = path.resolve(import.meta.dirname, '../../../../scripts/hash-password.mjs');
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

/** The real scrypt verifier (at a low cost, so the suite stays quick) that counts how many checks it ran. */
async function countingVerifier(password: string): Promise<PasswordVerifier & { runs: number }> {
  const real = createPasswordVerifier({ passwordHash: await hashPassword(password, { N: 2 ** 12, r: 8, p: 1 }) });
  const counting = {
    configured: true,
    runs: 0,
    verify(candidate: string) {
      counting.runs++;
      return real.verify(candidate);
    },
  };
  return counting;
}

/** Where the lockout counts: this process (one instance), or one Redis shared by two instances when TEST_REDIS_URL is set. */
function lockoutStores(): { name: string; open(): Promise<{ stores: RateLimitStore[]; close(): Promise<void> }> }[] {
  const stores = [{ name: 'memory, one instance', open: async () => ({ stores: [{}], close: async () => {} }) }];
  const url = process.env.TEST_REDIS_URL;
  if (url) {
    stores.push({
      name: 'Redis, two instances',
      async open() {
        const logger = createLogger({ level: 'silent' });
        const clients = [await connectRedis(url, logger), await connectRedis(url, logger)];
        return {
          stores: clients.map((redis) => ({ redis })),
          async close() {
            await clients[0]!.del(...used.map((key) => `rl:admin-login-failures:${key}`));
            await Promise.all(clients.map(closeRedis));
          },
        };
      },
    });
  }
  return stores;
}

/** Addresses of this run (a documentation range from a random start), so runs sharing a Redis do not meet. */
const used: string[] = [];
const firstHost = randomInt(1, 200);
const freshIpv4 = () => {
  const address = `198.51.100.${firstHost + used.length}`;
  used.push(address);
  return address;
};

describe.each(lockoutStores())('admin login lockout under concurrency ($name)', (store) => {
  let db: TestDatabase;
  let limits: Awaited<ReturnType<(typeof store)['open']>>;
  beforeAll(async () => {
    db = await testBackends()[0]!.open();
    limits = await store.open();
  });
  afterAll(async () => {
    await limits.close();
    await db.dispose();
  });

  const instances = (verifier: PasswordVerifier, onFailureBurst?: (event: { address: string; failures: number }) => void) =>
    limits.stores.map((rateLimits) =>
      createAdminAuthService({
        sessions: createAdminSessionsRepository(db.handle.db),
        verifier,
        clock: () => new Date(),
        rateLimits,
        onFailureBurst,
      }),
    );

  it('checks at most 5 of 40 concurrent wrong passwords from one address, and refuses the right one sent during them', async () => {
    const verifier = await countingVerifier('right');
    const bursts: { address: string; failures: number }[] = [];
    const auth = instances(verifier, (event) => bursts.push(event));
    const address = freshIpv4();
    const outcome = (attempt: Promise<unknown>) =>
      attempt.then(
        () => 'logged in',
        (error: unknown) => (error instanceof RateLimitedError ? 'rate_limited' : error instanceof UnauthorizedError ? 'invalid_password' : error),
      );

    const wrong = Array.from({ length: 40 }, (_, i) => outcome(auth[i % auth.length]!.login(`guess ${i}`, address)));
    // Sent once one guess has been answered: the burst has reached the lockout before it.
    await Promise.race(wrong);
    const right = auth[auth.length - 1]!.login('right', address);
    await expect(right).rejects.toBeInstanceOf(RateLimitedError);
    await expect(right).rejects.toMatchObject({ message: 'Too many failed login attempts. Please wait and try again later.' });
    const retryAfter = await right.catch((error: RateLimitedError) => error.retryAfterSeconds);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    const outcomes = await Promise.all(wrong);
    expect(outcomes.filter((o) => o === 'invalid_password')).toHaveLength(LOGIN_MAX_FAILURES);
    expect(outcomes.filter((o) => o === 'rate_limited')).toHaveLength(40 - LOGIN_MAX_FAILURES);
    expect(verifier.runs).toBeLessThanOrEqual(LOGIN_MAX_FAILURES);
    expect(bursts).toEqual([{ address, failures: LOGIN_MAX_FAILURES }]);
  });

  it('gives the slot back when the password could not be checked, and clears the address on success', async () => {
    const real = await countingVerifier('right');
    const auth = instances({
      configured: true,
      verify: async (candidate) => {
        if (candidate === 'crash') throw new Error('scrypt failed');
        return real.verify(candidate);
      },
    });
    const address = freshIpv4();
    for (let i = 0; i < 2 * LOGIN_MAX_FAILURES; i++) await expect(auth[i % auth.length]!.login('crash', address)).rejects.toThrow('scrypt failed');
    for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) await expect(auth[i % auth.length]!.login(`guess ${i}`, address)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(auth[0]!.login('right', address)).resolves.toMatchObject({ session: { authenticated: true } });
    // The success cleared the earlier failures: a full budget again.
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) await expect(auth[i % auth.length]!.login(`again ${i}`, address)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(auth[0]!.login('right', address)).rejects.toBeInstanceOf(RateLimitedError);
  });
});
