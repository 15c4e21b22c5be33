// `npm run release-key -- --app blog [--app shell …] --out <dir>`: makes a team's Ed25519 release-signing key pair
// (issue 33), writes the private key to <dir>/<first app>.key (PKCS#8 PEM, mode 0600: keep it as a CI secret, never in
// the repository) and prints, as its last line, the RELEASE_TRUSTED_KEYS line the servers need. Several teams' keys
// combine into one value, comma-separated (see api/src/site/releases/release-signature.ts).
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { keyId, newSigningKey, trustedKeyEntry } from '../src/site/releases/release-signature';

const APP = /^(?:\*|[a-z][a-z0-9-]{0,39})$/;
const { values } = parseArgs({ args: process.argv.slice(2), options: { app: { type: 'string', multiple: true }, out: { type: 'string' } } });
const apps = values.app ?? [];
/** Makes the key; answers the exit code (set, not exited: run-ts.mjs removes its bundle after the run). */
async function main(): Promise<number> {
  if (apps.length === 0 || !values.out || apps.some((a) => !APP.test(a))) {
    console.error('Usage: npm run release-key -- --app <app> [--app <app> …] --out <dir>\n  app: shell, marketing, analysis, blog or admin (or * for every app)');
    return 2;
  }
  const dir = path.resolve(process.env.INIT_CWD || process.cwd(), values.out);
  const file = path.join(dir, `${apps[0] === '*' ? 'all' : apps[0]}.key`);
  if (existsSync(file)) {
    console.error(`${file} exists: not overwritten (move it away to make a new key).`);
    return 1;
  }
  const { privateKeyPem, publicKey } = newSigningKey();
  await mkdir(dir, { recursive: true });
  await writeFile(file, privateKeyPem, { mode: 0o600, flag: 'wx' });
  console.log(`Wrote the private key of ${apps.join(', ')} to ${file} (key ${keyId(publicKey)}). Keep it secret: a CI secret, never in the repository.`);
  console.log("Add this line to every server's environment (join several keys with commas into one value):");
  console.log(`RELEASE_TRUSTED_KEYS=${trustedKeyEntry(apps, publicKey)}`);
  return 0;
}
process.exitCode = await main();
