import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { lstat, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/*
 * Signed releases (issue 33): a hash proves a release's files are the ones stored, not who made them, so anyone who can
 * write the database could run code on every instance. A team signs its release with its own Ed25519 key; servers trust
 * the public keys in their own configuration (RELEASE_TRUSTED_KEYS, never the database), each for the apps it may sign.
 *
 *   <release>/release-signature.json   { app, version, key, files: [[path, sha256 hex], …], signature }
 *
 * What is signed is the statement: the app, the version and every file's path and SHA-256 (sorted by path), as
 * canonical JSON. A release verifies when its signature file names this app, its key is trusted for this app, the
 * signature over the statement is valid, and the folder holds exactly the files listed with those hashes.
 *
 * RELEASE_TRUSTED_KEYS: entries separated by commas, each `<apps>=<public key>`: apps joined by `+` (`blog`,
 * `shell+marketing`) or `*` for every app; the key is the base64 of its SPKI DER form (what `npm run release-key`
 * prints). Example: `blog=MCowBQYDK2VwAyEA…,shell+marketing=MCowBQYDK2VwAyEA…`.
 */

export const SIGNATURE_FILE = 'release-signature.json';

export interface ReleaseStatement {
  app: string;
  version: string;
  /** [path relative to the release, with `/`; SHA-256 hex], sorted by path. */
  files: Array<[string, string]>;
}

export interface ReleaseSignature extends ReleaseStatement {
  /** The signing key's id: the first 16 hex digits of the SHA-256 of its public key (SPKI DER). */
  key: string;
  /** Ed25519 signature of the canonical statement, base64. */
  signature: string;
}

export interface TrustedKey {
  id: string;
  key: KeyObject;
  /** The apps it may sign; `*` for all. */
  apps: ReadonlySet<string>;
}

export type SignatureCheck = { ok: true; key: string } | { ok: false; reason: string };

/** The bytes that are signed: the statement as JSON with its fields in one order and its files sorted. */
export function canonicalStatement(statement: ReleaseStatement): Buffer {
  const files = [...statement.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Buffer.from(JSON.stringify({ app: statement.app, version: statement.version, files }), 'utf8');
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export const keyId = (publicKey: KeyObject) => createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16);

/** Every regular file below `dir` (not the signature file) with its SHA-256; a link or other special file is refused. */
export async function hashFiles(dir: string): Promise<Array<[string, string]>> {
  const files: Array<[string, string]> = [];
  const walk = async (relative: string) => {
    for (const entry of await readdir(path.join(dir, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      const info = await lstat(path.join(dir, name));
      if (info.isDirectory()) await walk(name);
      else if (info.isFile()) {
        if (name !== SIGNATURE_FILE) files.push([name, sha256(await readFile(path.join(dir, name)))]);
      } else throw new Error(`${name} is not a regular file or folder (a link?): a release holds files only`);
    }
  };
  await walk('');
  return files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Signs a statement with a private key (PKCS#8 PEM, as `openssl genpkey -algorithm ed25519` writes it). */
export function signStatement(statement: ReleaseStatement, privateKeyPem: string): ReleaseSignature {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(privateKeyPem);
  } catch {
    throw new Error('the signing key is not a private key in PEM (PKCS#8), as `npm run release-key` or `openssl genpkey -algorithm ed25519` writes it');
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`the signing key is ${privateKey.asymmetricKeyType ?? 'not a private key'}, not Ed25519`);
  const files = [...statement.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const sorted = { ...statement, files };
  return { ...sorted, key: keyId(createPublicKey(privateKey)), signature: sign(null, canonicalStatement(sorted), privateKey).toString('base64') };
}

/** The signature file's bytes for a release held in memory (path with `/` -> bytes), as the shared store keeps it. */
export function signFiles(files: ReadonlyMap<string, Buffer>, app: string, version: string, privateKeyPem: string): Buffer {
  const hashed = [...files].filter(([file]) => file !== SIGNATURE_FILE).map(([file, bytes]): [string, string] => [file, sha256(bytes)]);
  return Buffer.from(`${JSON.stringify(signStatement({ app, version, files: hashed }, privateKeyPem), null, 2)}\n`);
}

/** Signs the release in `dir` as `app` `version` and writes its signature file. */
export async function signRelease(dir: string, app: string, version: string, privateKeyPem: string): Promise<ReleaseSignature> {
  const signed = signStatement({ app, version, files: await hashFiles(dir) }, privateKeyPem);
  await writeFile(path.join(dir, SIGNATURE_FILE), `${JSON.stringify(signed, null, 2)}\n`);
  return signed;
}

/** RELEASE_TRUSTED_KEYS read into keys, or an error naming the entry that is wrong. Empty: no key (unsigned releases). */
export function parseTrustedKeys(value: string | undefined): TrustedKey[] {
  const keys: TrustedKey[] = [];
  for (const [index, raw] of (value ?? '').split(',').entries()) {
    const entry = raw.trim();
    if (!entry) continue;
    const at = entry.indexOf('=');
    const where = `RELEASE_TRUSTED_KEYS entry ${index + 1}`;
    if (at <= 0) throw new Error(`${where} is not <apps>=<public key>`);
    const apps = entry.slice(0, at).split('+').map((a) => a.trim());
    if (apps.some((a) => !/^(?:\*|[a-z][a-z0-9-]{0,39})$/.test(a))) throw new Error(`${where} names an app that is not a name: ${entry.slice(0, at)}`);
    let key: KeyObject;
    try {
      key = createPublicKey({ key: Buffer.from(entry.slice(at + 1).trim(), 'base64'), format: 'der', type: 'spki' });
    } catch {
      throw new Error(`${where} (${entry.slice(0, at)}) is not a public key in base64 (SPKI DER)`);
    }
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${where} (${entry.slice(0, at)}) is a ${key.asymmetricKeyType} key, not Ed25519`);
    keys.push({ id: keyId(key), key, apps: new Set(apps) });
  }
  return keys;
}

/** The RELEASE_TRUSTED_KEYS entry of a public key for `apps`. */
export const trustedKeyEntry = (apps: readonly string[], publicKey: KeyObject) => `${apps.join('+')}=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;

/** A new Ed25519 key pair: the private key as PKCS#8 PEM (what `openssl genpkey -algorithm ed25519` writes). */
export function newSigningKey(): { privateKeyPem: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
}

/**
 * Whether the release in `dir` is `app`'s, signed by a key trusted for `app`, and holds exactly the files it signed.
 * Every reason names what is wrong (the file, the key), for health and the deploy's answer.
 */
export async function verifyRelease(dir: string, app: string, trusted: readonly TrustedKey[]): Promise<SignatureCheck> {
  let signed: ReleaseSignature;
  try {
    signed = JSON.parse(await readFile(path.join(dir, SIGNATURE_FILE), 'utf8')) as ReleaseSignature;
  } catch (error) {
    return { ok: false, reason: (error as NodeJS.ErrnoException).code === 'ENOENT' ? `${SIGNATURE_FILE} is missing: the release is not signed` : `${SIGNATURE_FILE} is not valid JSON` };
  }
  if (typeof signed !== 'object' || signed === null || typeof signed.signature !== 'string' || typeof signed.key !== 'string' || !Array.isArray(signed.files)) {
    return { ok: false, reason: `${SIGNATURE_FILE} is not a release signature` };
  }
  if (signed.app !== app) return { ok: false, reason: `the release is signed for "${String(signed.app)}", not "${app}"` };
  const key = trusted.find((k) => k.id === signed.key);
  if (!key) return { ok: false, reason: `it is signed by key ${signed.key}, which this server does not trust (RELEASE_TRUSTED_KEYS)` };
  if (!key.apps.has(app) && !key.apps.has('*')) return { ok: false, reason: `key ${signed.key} is trusted for ${[...key.apps].join(', ')}, not for "${app}"` };
  const statement: ReleaseStatement = { app: signed.app, version: String(signed.version), files: signed.files };
  let valid: boolean;
  try {
    valid = verify(null, canonicalStatement(statement), key.key, Buffer.from(signed.signature, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) return { ok: false, reason: `its signature by key ${signed.key} is not valid: the release was changed after it was signed` };
  let present: Array<[string, string]>;
  try {
    present = await hashFiles(dir);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  const listed = new Map(signed.files.map(([file, hash]) => [file, hash]));
  for (const [file, hash] of present) {
    if (!listed.has(file)) return { ok: false, reason: `${file} is not in the signed release` };
    if (listed.get(file) !== hash) return { ok: false, reason: `${file} is not the file that was signed (its SHA-256 differs)` };
    listed.delete(file);
  }
  const missing = [...listed.keys()][0];
  if (missing !== undefined) return { ok: false, reason: `${missing} is missing from the release` };
  return { ok: true, key: signed.key };
}
