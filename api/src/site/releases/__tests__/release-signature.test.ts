import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { newSigningKey, parseTrustedKeys, signFiles, signRelease, SIGNATURE_FILE, trustedKeyEntry, verifyRelease } from '../release-signature';

/*
 * Issue 33: a release runs only when a key the server's own configuration trusts for that app signed exactly its
 * files. A database (or disk) writer who can make a correct hash cannot make a signature.
 */
describe('signed releases', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  async function release(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'signed-release-'));
    dirs.push(dir);
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'mfe-manifest.json'), '{"name":"blog","version":"1.2.0"}');
    await writeFile(path.join(dir, 'assets', 'remoteEntry.js'), 'export const x = 1;');
    await writeFile(path.join(dir, 'server.js'), 'exports.routes = [];');
    return dir;
  }

  const blogTeam = newSigningKey();
  const shellTeam = newSigningKey();
  const trusted = parseTrustedKeys(`${trustedKeyEntry(['blog'], blogTeam.publicKey)}, ${trustedKeyEntry(['shell', 'marketing'], shellTeam.publicKey)}`);

  it('verifies a release its team signed, and names the key', async () => {
    const dir = await release();
    const signed = await signRelease(dir, 'blog', '1.2.0', blogTeam.privateKeyPem);
    expect(signed.files.map(([file]) => file)).toEqual(['assets/remoteEntry.js', 'mfe-manifest.json', 'server.js']);
    expect(await verifyRelease(dir, 'blog', trusted)).toEqual({ ok: true, key: trusted[0]!.id });
  });

  it('refuses an unsigned release, one by an untrusted key, and one by a key trusted for other apps', async () => {
    const dir = await release();
    expect(await verifyRelease(dir, 'blog', trusted)).toEqual({ ok: false, reason: `${SIGNATURE_FILE} is missing: the release is not signed` });
    await signRelease(dir, 'blog', '1.2.0', newSigningKey().privateKeyPem);
    expect(await verifyRelease(dir, 'blog', trusted)).toMatchObject({ ok: false, reason: expect.stringContaining('which this server does not trust (RELEASE_TRUSTED_KEYS)') });
    await signRelease(dir, 'blog', '1.2.0', shellTeam.privateKeyPem);
    expect(await verifyRelease(dir, 'blog', trusted)).toEqual({ ok: false, reason: `key ${trusted[1]!.id} is trusted for shell, marketing, not for "blog"` });
    // Signed by the blog's key as the shell: the blog's key may not sign the shell.
    await signRelease(dir, 'shell', '1.2.0', blogTeam.privateKeyPem);
    expect(await verifyRelease(dir, 'shell', trusted)).toEqual({ ok: false, reason: `key ${trusted[0]!.id} is trusted for blog, not for "shell"` });
    expect(await verifyRelease(dir, 'blog', trusted)).toEqual({ ok: false, reason: 'the release is signed for "shell", not "blog"' });
  });

  it('refuses a release changed after it was signed: a file edited, added or removed, or the statement rewritten', async () => {
    const dir = await release();
    await signRelease(dir, 'blog', '1.2.0', blogTeam.privateKeyPem);
    await writeFile(path.join(dir, 'server.js'), 'require("child_process").execSync("touch /tmp/owned"); exports.routes = [];');
    expect(await verifyRelease(dir, 'blog', trusted)).toEqual({ ok: false, reason: 'server.js is not the file that was signed (its SHA-256 differs)' });

    const added = await release();
    await signRelease(added, 'blog', '1.2.0', blogTeam.privateKeyPem);
    await writeFile(path.join(added, 'assets', 'extra.js'), 'alert(1)');
    expect(await verifyRelease(added, 'blog', trusted)).toEqual({ ok: false, reason: 'assets/extra.js is not in the signed release' });

    const removed = await release();
    await signRelease(removed, 'blog', '1.2.0', blogTeam.privateKeyPem);
    await rm(path.join(removed, 'server.js'));
    expect(await verifyRelease(removed, 'blog', trusted)).toEqual({ ok: false, reason: 'server.js is missing from the release' });

    // The hashes in the signature file made to match the changed file: the signature no longer does.
    const rewritten = await release();
    const signed = await signRelease(rewritten, 'blog', '1.2.0', blogTeam.privateKeyPem);
    await writeFile(path.join(rewritten, 'server.js'), 'exports.routes = [{ path: "/evil" }];');
    const { createHash } = await import('node:crypto');
    const files = signed.files.map(([file, hash]) => [file, file === 'server.js' ? createHash('sha256').update('exports.routes = [{ path: "/evil" }];').digest('hex') : hash]);
    await writeFile(path.join(rewritten, SIGNATURE_FILE), JSON.stringify({ ...signed, files }));
    expect(await verifyRelease(rewritten, 'blog', trusted)).toMatchObject({ ok: false, reason: expect.stringContaining('is not valid: the release was changed after it was signed') });
  });

  it('signs a release held in memory (the shared store) as it signs one on disk', async () => {
    const dir = await release();
    const files = new Map<string, Buffer>();
    for (const name of ['mfe-manifest.json', 'assets/remoteEntry.js', 'server.js']) files.set(name, await readFile(path.join(dir, name)));
    await writeFile(path.join(dir, SIGNATURE_FILE), signFiles(files, 'blog', '1.2.0', blogTeam.privateKeyPem));
    expect(await verifyRelease(dir, 'blog', trusted)).toEqual({ ok: true, key: trusted[0]!.id });
    expect(() => signFiles(files, 'blog', '1.2.0', 'not a key')).toThrow('the signing key is not a private key in PEM (PKCS#8)');
  });

  it('refuses a release holding a link', async () => {
    const dir = await release();
    await symlink('/etc/passwd', path.join(dir, 'assets', 'passwd'));
    await expect(signRelease(dir, 'blog', '1.2.0', blogTeam.privateKeyPem)).rejects.toThrow('assets/passwd is not a regular file or folder (a link?)');
    await rm(path.join(dir, 'assets', 'passwd'));
    await signRelease(dir, 'blog', '1.2.0', blogTeam.privateKeyPem);
    await symlink('/etc/passwd', path.join(dir, 'assets', 'passwd'));
    expect(await verifyRelease(dir, 'blog', trusted)).toMatchObject({ ok: false, reason: expect.stringContaining('assets/passwd is not a regular file') });
  });

  it('reads RELEASE_TRUSTED_KEYS, naming the entry that is wrong', () => {
    expect(parseTrustedKeys('')).toEqual([]);
    expect(parseTrustedKeys(undefined)).toEqual([]);
    expect([...parseTrustedKeys(`*=${trustedKeyEntry(['x'], blogTeam.publicKey).split('=').slice(1).join('=')}`)[0]!.apps]).toEqual(['*']);
    expect(() => parseTrustedKeys('blog')).toThrow('RELEASE_TRUSTED_KEYS entry 1 is not <apps>=<public key>');
    expect(() => parseTrustedKeys(`${trustedKeyEntry(['blog'], blogTeam.publicKey)},Blog!=abc`)).toThrow('RELEASE_TRUSTED_KEYS entry 2 names an app that is not a name: Blog!');
    expect(() => parseTrustedKeys('blog=bm90IGEga2V5')).toThrow('RELEASE_TRUSTED_KEYS entry 1 (blog) is not a public key in base64 (SPKI DER)');
  });
});
