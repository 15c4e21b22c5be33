#!/usr/bin/env node
// Prints an ADMIN_PASSWORD_HASH for a password: `scrypt$N$r$p$<salt base64>$<hash base64>` (the format the API
// checks, see api/src/admin/password.ts). The password is read from a hidden prompt (typed twice), or from
// stdin when piped: `printf '%s' 'my password' | npm run -s hash-password`. Cost: `npm run hash-password -- --n-log2 17`. It is never an argument, so it does not
// end up in the shell history or the process list.
import { randomBytes, scrypt } from 'node:crypto';

// Keep in step with SCRYPT_DEFAULTS in api/src/admin/password.ts (the server reads the cost from the hash).
// `--n-log2 17` picks a higher cost (OWASP's 2^17: ~4x slower logins and 128 MiB per check); 10 to 20 accepted.
const flag = process.argv.indexOf('--n-log2');
const log2 = flag > 0 ? Number(process.argv[flag + 1]) : 15;
if (!Number.isInteger(log2) || log2 < 10 || log2 > 20) {
  console.error('--n-log2 takes a whole number from 10 to 20.');
  process.exit(2);
}
const N = 2 ** log2;
const r = 8;
const p = 1;
const KEY_LENGTH = 32;

function readPiped() {
  return new Promise((resolve, reject) => {
    let data = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => (data += chunk));
    process.stdin.on('end', () => resolve(data.replace(/\r?\n$/, '')));
    process.stdin.on('error', reject);
  });
}

function prompt(question) {
  return new Promise((resolve) => {
    process.stderr.write(question);
    const stdin = process.stdin;
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    let value = '';
    const onData = (chunk) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stderr.write('\n');
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          process.stderr.write('\n');
          process.exit(130);
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function main() {
  let password;
  if (process.stdin.isTTY) {
    password = await prompt('Admin password: ');
    const again = await prompt('Again, to confirm: ');
    if (password !== again) {
      console.error('The two passwords differ. Nothing was printed.');
      process.exit(1);
    }
  } else {
    password = await readPiped();
  }
  if (!password) {
    console.error('The password is empty. Nothing was printed.');
    process.exit(1);
  }
  if (password.length < 12) console.error('Note: a password of 12 or more characters is much harder to guess.');
  const salt = randomBytes(16);
  const key = await new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (e, k) => (e ? reject(e) : resolve(k))),
  );
  process.stdout.write(`${['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$')}\n`);
  if (process.stdin.isTTY || process.stderr.isTTY) {
    console.error("Set it as ADMIN_PASSWORD_HASH (in single quotes: the value contains '$'), e.g. ADMIN_PASSWORD_HASH='scrypt$…'");
  }
}

await main();
