import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The boundaries of eslint.config.js, proven against the real configuration: a probe file placed (virtually)
 * in each zone imports a real file across the boundary and must be reported; the same probe importing what
 * is allowed must not be. Removing or loosening a boundary rule fails this test.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BOUNDARY_RULES = new Set(['import-x/no-restricted-paths', 'no-restricted-imports']);
const REMOTES = ['mfe-marketing', 'mfe-analysis', 'mfe-blog', 'mfe-admin'];

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** A real source file under `dir` (not a test), so the import resolves the way a real one would. */
function sourceFileIn(dir: string): string {
  const abs = path.join(ROOT, dir);
  const entries = readdirSync(abs).sort();
  for (const name of entries) {
    if (/\.(?:ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) return path.join(abs, name);
  }
  for (const name of entries) {
    if (name === '__tests__' || !statSync(path.join(abs, name)).isDirectory()) continue;
    try {
      return sourceFileIn(path.join(dir, name));
    } catch {
      // an empty or test-only folder: try the next one
    }
  }
  throw new Error(`no source file under ${dir}`);
}

/** The feature folders of an app that already hold a source file (one being started may be empty). */
function featuresOf(app: string): string[] {
  return readdirSync(path.join(ROOT, app, 'src/features'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((feature) => {
      try {
        return Boolean(sourceFileIn(`${app}/src/features/${feature}`));
      } catch {
        return false;
      }
    });
}

/** The import specifier that reaches `target` from a file at `from`, as a person would write it. */
function specifier(from: string, target: string): string {
  const rel = path.relative(path.dirname(path.join(ROOT, from)), target).replace(/\.(?:ts|tsx)$/, '');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Boundary messages for a probe at `file` (repo-relative) importing `source`; fails on a parse error. */
async function boundaryErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import * as probe from '${source}';\nexport default probe;\n`, {
    filePath: path.join(ROOT, file),
  });
  expect(result!.messages.filter((m) => m.fatal), `${file} parses`).toEqual([]);
  return result!.messages.filter((m) => m.ruleId && BOUNDARY_RULES.has(m.ruleId)).map((m) => m.message);
}

async function expectBlocked(file: string, target: string, message: RegExp) {
  const errors = await boundaryErrors(file, target.startsWith('/') ? specifier(file, target) : target);
  expect(errors, `${file} importing ${target}`).toEqual([expect.stringMatching(message)]);
}

async function expectAllowed(file: string, target: string) {
  expect(await boundaryErrors(file, target.startsWith('/') ? specifier(file, target) : target), `${file} importing ${target}`).toEqual([]);
}

describe('front-end apps stay apart', () => {
  for (const remote of REMOTES) {
    it(`${remote} imports no other remote and not the shell`, async () => {
      const probe = `${remote}/src/app/probe.tsx`;
      for (const other of REMOTES.filter((r) => r !== remote)) {
        await expectBlocked(probe, sourceFileIn(`${other}/src`), /A remote imports no other remote/);
      }
      await expectBlocked(probe, sourceFileIn('shell/src'), /A remote imports no other remote and not the shell/);
      await expectAllowed(probe, sourceFileIn(`${remote}/src/app`));
      await expectAllowed(probe, '@site/ui');
    });
  }

  it('the shell imports no remote', async () => {
    for (const remote of REMOTES) {
      await expectBlocked('shell/src/app/probe.tsx', sourceFileIn(`${remote}/src`), /The shell knows no remote/);
    }
  });

  it('the design system imports no app', async () => {
    for (const app of ['shell', ...REMOTES, 'api']) {
      await expectBlocked('packages/ui/src/probe.tsx', sourceFileIn(`${app}/src`), /The design system imports no app/);
    }
    await expectAllowed('packages/ui/src/probe.tsx', '@site/contracts/manifest');
  });
});

describe('inside an app: shared -> features -> app', () => {
  for (const app of ['shell', ...REMOTES]) {
    const features = featuresOf(app);

    it(`${app}: a feature imports no other feature`, async () => {
      if (features.length < 2) return; // one feature: nothing to cross (the zone exists as soon as a second one does)
      for (const [a, b] of [[features[0]!, features[1]!], [features[1]!, features[0]!]]) {
        const probe = `${app}/src/features/${a}/components/probe.tsx`;
        await expectBlocked(probe, sourceFileIn(`${app}/src/features/${b}`), new RegExp(`Features do not import each other: move what "${a}" shares`));
        await expectAllowed(probe, sourceFileIn(`${app}/src/features/${a}`));
      }
    });

    it(`${app}: components/, lib/ and config/ import no feature; nothing below app/ imports app/`, async () => {
      const feature = sourceFileIn(`${app}/src/features/${features[0]!}`);
      for (const shared of ['components', 'lib', 'config']) {
        await expectBlocked(`${app}/src/${shared}/probe.ts`, feature, /Shared code \(components\/, lib\/, config\/\) imports no feature/);
      }
      const appFile = sourceFileIn(`${app}/src/app`);
      for (const below of [`features/${features[0]!}`, 'components', 'lib']) {
        await expectBlocked(`${app}/src/${below}/probe.ts`, appFile, /Only app\/ composes the features/);
      }
      await expectAllowed(`${app}/src/app/probe.tsx`, feature);
    });
  }

  it('the rule follows the folders: a feature added later is fenced in too', async () => {
    // Features are read from disk when the config loads; a probe inside a folder that holds files counts.
    const [a, b] = featuresOf('mfe-marketing');
    await expectBlocked(`mfe-marketing/src/features/${b}/data/probe.ts`, sourceFileIn(`mfe-marketing/src/features/${a}`), /Features do not import each other/);
  });
});

describe('API layering', () => {
  it('routes/ never imports db/, also not through a type import', async () => {
    const db = sourceFileIn('api/src/db');
    await expectBlocked('api/src/routes/probe.ts', db, /Routes get services, never the database/);
    const [result] = await eslint.lintText(`import type { Kysely } from '${specifier('api/src/routes/probe.ts', db)}';\nexport type T = Kysely<never>;\n`, {
      filePath: path.join(ROOT, 'api/src/routes/probe.ts'),
    });
    expect(result!.messages.map((m) => m.ruleId)).toContain('import-x/no-restricted-paths');
    await expectAllowed('api/src/routes/probe.ts', sourceFileIn('api/src/services'));
    await expectAllowed('api/src/services/probe.ts', db);
  });
});

describe('packages/contracts imports nothing but zod', () => {
  it('blocks packages, node built-ins and files outside its own folder', async () => {
    for (const source of ['@site/ui', 'react', 'node:crypto', 'fs', '../package.json', '../../ui/src/index']) {
      await expectBlocked('packages/contracts/src/probe.ts', source, /packages\/contracts imports nothing but zod/);
    }
  });

  it('allows zod and its own files; its tests may use dev dependencies', async () => {
    for (const source of ['zod', 'zod/mini', './posts']) await expectAllowed('packages/contracts/src/probe.ts', source);
    for (const source of ['fast-check', 'vitest', '../posts']) await expectAllowed('packages/contracts/src/__tests__/probe.test.ts', source);
  });
});
