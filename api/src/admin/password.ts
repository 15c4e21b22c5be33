import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Admin password hashes: `scrypt$N$r$p$<salt base64>$<hash base64>` (N = CPU/memory cost, a power of two; r = block
 * size; p = parallelism; 16-byte salt; 32-byte key). `npm run hash-password` prints one for ADMIN_PASSWORD_HASH.
 *
 * N=2^15 (32 MiB per check) keeps a login under a second on a small server while a stolen hash still costs 32 MiB and
 * a scrypt run per guess. The cost is stored in each hash, so `npm run hash-password -- --n-log2 17` raises it without
 * a code change; online guessing is bounded by the lockout, not by the cost.
 */
export const SCRYPT_DEFAULTS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

export interface ParsedHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

export const HASH_FORMAT_HELP = 'scrypt$N$r$p$<salt base64>$<hash base64> (make one with `npm run hash-password`)';

/** Parses a stored hash; undefined when it is not in the documented format or its parameters are unsafe. */
export function parsePasswordHash(value: string): ParsedHash | undefined {
  const parts = value.trim().split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map((v) => (/^\d{1,9}$/.test(v!) ? Number(v) : NaN)) as [number, number, number];
  if (!Number.isInteger(N) || N < 2 ** 10 || N > 2 ** 20 || (N & (N - 1)) !== 0) return undefined;
  if (!Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16) return undefined;
  const b64 = /^[A-Z0-9+/]+={0,2}$/i;
  if (!b64.test(parts[4]!) || !b64.test(parts[5]!)) return undefined;
  const salt = Buffer.from(parts[4]!, 'base64');
  const hash = Buffer.from(parts[5]!, 'base64');
  if (salt.length < 8 || hash.length < 16 || hash.length > 128) return undefined;
  return { N, r, p, salt, hash };
}

function derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const optionsOf = (h: Pick<ParsedHash, 'N' | 'r' | 'p'>): ScryptOptions => ({
  N: h.N,
  r: h.r,
  p: h.p,
  // Node's default limit (32 MiB) is exactly the memory of N=2^15, r=8; leave room for larger stored costs.
  maxmem: 256 * h.N * h.r + 1024 * 1024,
});

/** A new hash of `password` in the documented format. */
export async function hashPassword(password: string, cost: Pick<ParsedHash, 'N' | 'r' | 'p'> = SCRYPT_DEFAULTS): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, KEY_LENGTH, optionsOf(cost));
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Constant-time check of `password` against a parsed hash: always one scrypt run and one fixed-length compare. */
export async function verifyPassword(password: string, stored: ParsedHash): Promise<boolean> {
  const key = await derive(password, stored.salt, stored.hash.length, optionsOf(stored));
  return timingSafeEqual(key, stored.hash);
}

/**
 * The verifier the login uses. With ADMIN_PASSWORD_HASH it checks the hash; with a plain ADMIN_PASSWORD it hashes
 * that once at start (random salt, same cost), so every attempt costs the same scrypt run and compares two
 * 32-byte keys: neither the password's length nor its prefix shows in the answer time.
 */
export interface PasswordVerifier {
  configured: boolean;
  verify(password: string): Promise<boolean>;
}

export function createPasswordVerifier(options: { password?: string; passwordHash?: string }): PasswordVerifier {
  if (options.passwordHash) {
    const parsed = parsePasswordHash(options.passwordHash);
    if (!parsed) throw new Error(`ADMIN_PASSWORD_HASH is not in the format ${HASH_FORMAT_HELP}`);
    return { configured: true, verify: (password) => verifyPassword(password, parsed) };
  }
  if (options.password) {
    const plain = options.password;
    let stored: Promise<ParsedHash> | undefined;
    const ready = () => (stored ??= hashPassword(plain).then((h) => parsePasswordHash(h)!));
    // Hashed at start, so the first login costs what every other one does.
    void ready().catch(() => (stored = undefined));
    return { configured: true, verify: async (password) => verifyPassword(password, await ready()) };
  }
  return { configured: false, verify: async () => false };
}

/** SHA-256 hex of a session token: what the database holds instead of the token. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
