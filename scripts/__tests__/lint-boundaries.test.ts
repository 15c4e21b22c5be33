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
const BOUNDARY_RULES = new Set(['import-x/no-restricted-paths', 'no-restricted-imports', 'no-restricted-syntax']);
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

/** Boundary messages for a probe at `file` (repo-relative) holding `text`; fails on a parse error. */
async function boundaryErrorsOf(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, file) });
  expect(result!.messages.filter((m) => m.fatal), `${file} parses`).toEqual([]);
  return result!.messages.filter((m) => m.ruleId && BOUNDARY_RULES.has(m.ruleId)).map((m) => m.message);
}

/** Boundary messages for a probe at `file` (repo-relative) importing `source`; fails on a parse error. */
async function boundaryErrors(file: string, source: string): Promise<string[]> {
  return boundaryErrorsOf(file, `import * as probe from '${source}';\nexport default probe;\n`);
}

/** The same, for a probe that loads `source` by a dynamic `await import()`. */
async function dynamicImportErrors(file: string, source: string): Promise<string[]> {
  return boundaryErrorsOf(file, `export const load = async () => await import('${source}');\n`);
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

  it('a front end imports no API code', async () => {
    for (const app of ['shell', ...REMOTES]) {
      const probe = `${app}/src/app/probe.tsx`;
      await expectBlocked(probe, path.join(ROOT, 'api/src/config.ts'), /A front end imports no API code/);
      await expectBlocked(`${app}/src/features/probe/probe.ts`, sourceFileIn('api/src'), /A front end imports no API code/);
      await expectBlocked(probe, sourceFileIn('api/src/posts'), /A front end imports no API code/);
      await expectAllowed(probe, '@site/contracts/manifest');
    }
    // The design system's own zone already covers the API.
    await expectBlocked('packages/ui/src/probe.tsx', path.join(ROOT, 'api/src/config.ts'), /The design system imports no app/);
  });

  it('the API imports no front-end code: it loads the built server entries at run time', async () => {
    for (const dir of ['api/src/site', 'api/src/http', 'api/src/posts', 'api/src']) {
      const probe = `${dir}/probe.ts`;
      await expectBlocked(probe, path.join(ROOT, 'shell/src/app/App.tsx'), /The API imports no front-end code/);
      for (const remote of REMOTES) await expectBlocked(probe, sourceFileIn(`${remote}/src`), /The API imports no front-end code/);
      await expectBlocked(probe, sourceFileIn('packages/ui/src'), /The API imports no front-end code/);
    }
    // A type import is a source import too.
    expect(
      await boundaryErrorsOf('api/src/site/probe.ts', `import type { default as App } from '${specifier('api/src/site/probe.ts', path.join(ROOT, 'shell/src/app/App.tsx'))}';\nexport type T = typeof App;\n`),
    ).toEqual([expect.stringMatching(/The API imports no front-end code/)]);
    await expectAllowed('api/src/site/probe.ts', '@site/contracts/manifest');
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

describe('API layering: areas side by side, layers by file name', () => {
  const file = (rel: string) => path.join(ROOT, rel);
  const repository = file('api/src/posts/posts-repository.ts');
  const schema = file('api/src/contact/contact-schema.ts');
  const db = sourceFileIn('api/src/db');
  const service = file('api/src/posts/post-service.ts');
  const otherAreaService = file('api/src/analysis/analysis-service.ts');
  const routes = file('api/src/contact/contact-routes.ts');

  it('the areas used below exist, so a rename cannot silently empty a probe', () => {
    for (const f of [repository, schema, service, otherAreaService, routes, file('api/src/services.ts')]) expect(statSync(f).isFile(), f).toBe(true);
  });

  it('a route (`*-routes.ts`, http/) never imports storage, also not through a type import', async () => {
    for (const probe of ['api/src/posts/probe-routes.ts', 'api/src/media/nested/probe-routes.ts', 'api/src/http/probe.ts']) {
      for (const storage of [db, repository, schema]) await expectBlocked(probe, storage, /Routes get services, never the database/);
      await expectAllowed(probe, service);
      await expectAllowed(probe, otherAreaService);
    }
    const [result] = await eslint.lintText(`import type { Kysely } from '${specifier('api/src/posts/probe-routes.ts', db)}';\nexport type T = Kysely<never>;\n`, {
      filePath: path.join(ROOT, 'api/src/posts/probe-routes.ts'),
    });
    expect(result!.messages.map((m) => m.ruleId)).toContain('import-x/no-restricted-paths');
  });

  it('domain code imports no route, http/, middleware/ or site/, also not through a type or dynamic import', async () => {
    for (const probe of ['api/src/posts/probe-service.ts', 'api/src/analysis/website/probe.ts', 'api/src/services.ts']) {
      for (const layer of [routes, sourceFileIn('api/src/http'), sourceFileIn('api/src/middleware'), sourceFileIn('api/src/site')]) {
        await expectBlocked(probe, layer, /Services are framework-free: they import no route, middleware or site code/);
      }
      for (const allowed of [repository, schema, db, sourceFileIn('api/src/lib'), otherAreaService]) await expectAllowed(probe, allowed);
    }
    const site = specifier('api/src/posts/probe-service.ts', sourceFileIn('api/src/site'));
    expect(await boundaryErrorsOf('api/src/posts/probe-service.ts', `import type * as S from '${site}';\nexport type T = typeof S;\n`)).toEqual([
      expect.stringMatching(/Services are framework-free/),
    ]);
    expect(await dynamicImportErrors('api/src/posts/probe-service.ts', site)).toEqual([expect.stringMatching(/Services are framework-free/)]);
  });

  it('storage (db/, `*-repository.ts`, `*-schema.ts`) imports no domain code, also not through a type import', async () => {
    for (const probe of ['api/src/db/probe.ts', 'api/src/posts/probe-repository.ts', 'api/src/media/probe-schema.ts']) {
      await expectBlocked(probe, service, /The database layer sits below the services/);
      await expectBlocked(probe, file('api/src/services.ts'), /The database layer sits below the services/);
      await expectAllowed(probe, sourceFileIn('api/src/lib'));
      await expectAllowed(probe, schema);
      await expectAllowed(probe, '@site/contracts/analysis');
    }
    const analysisService = specifier('api/src/posts/probe-repository.ts', otherAreaService);
    expect(
      await boundaryErrorsOf('api/src/posts/probe-repository.ts', `import type { AnalysisService } from '${analysisService}';\nexport type T = AnalysisService;\n`),
    ).toEqual([expect.stringMatching(/The database layer sits below the services/)]);
  });

  it('lib/ imports no app code', async () => {
    for (const target of [service, routes, repository, db, sourceFileIn('api/src/http'), sourceFileIn('api/src/middleware'), sourceFileIn('api/src/site'), file('api/src/services.ts')]) {
      await expectBlocked('api/src/lib/probe.ts', target, /lib\/ holds small framework-free helpers: it imports no app code/);
    }
    await expectAllowed('api/src/lib/probe.ts', sourceFileIn('api/src/lib'));
  });

  it('a new area is fenced in as soon as it holds a file; a test drives its area through every layer', async () => {
    // contact/ stands for any area: the zones are built from the folders on disk.
    await expectBlocked('api/src/contact/probe-routes.ts', file('api/src/contact/contact-repository.ts'), /Routes get services, never the database/);
    await expectAllowed('api/src/contact/__tests__/probe.test.ts', file('api/src/contact/contact-repository.ts'));
    await expectAllowed('api/src/contact/__tests__/probe.test.ts', routes);
    await expectBlocked('api/src/contact/__tests__/probe.test.ts', path.join(ROOT, 'shell/src/app/App.tsx'), /The API imports no front-end code/);
  });
});

describe('the release code (site/releases) is layered as an area: its repositories are storage and its only SQL', () => {
  const file = (rel: string) => path.join(ROOT, rel);
  const repository = file('api/src/site/releases/releases-repository.ts');
  const domain = file('api/src/site/releases/release-format.ts');
  const service = file('api/src/posts/post-service.ts');
  const probe = 'api/src/site/releases/probe.ts';
  const repositoryProbe = 'api/src/site/releases/probe-repository.ts';

  it('the files used below exist, so a rename cannot silently empty a probe', () => {
    for (const f of [repository, domain, service, file('api/src/site/site-handler.ts')]) expect(statSync(f).isFile(), f).toBe(true);
  });

  it('its domain code imports no route, http/, middleware/ or page rendering, also not through a type import', async () => {
    for (const layer of [file('api/src/contact/contact-routes.ts'), sourceFileIn('api/src/http'), sourceFileIn('api/src/middleware'), sourceFileIn('api/src/site/render'), file('api/src/site/site-handler.ts')]) {
      await expectBlocked(probe, layer, /The release code is domain code/);
    }
    const render = specifier(probe, sourceFileIn('api/src/site/render'));
    expect(await boundaryErrorsOf(probe, `import type * as R from '${render}';\nexport type T = typeof R;\n`)).toEqual([expect.stringMatching(/The release code is domain code/)]);
    for (const allowed of [repository, domain, sourceFileIn('api/src/lib'), service]) await expectAllowed(probe, allowed);
  });

  it('only its repositories import kysely or the table types, also not through a type import', async () => {
    expect(await boundaryErrors(probe, 'kysely')).toEqual([expect.stringMatching(/SQL in the release code lives in its repositories/)]);
    expect(await boundaryErrorsOf(probe, `import type { Kysely } from 'kysely';\nexport type T = Kysely<never>;\n`)).toEqual([expect.stringMatching(/SQL in the release code lives in its repositories/)]);
    expect(await boundaryErrors(probe, '../../db/schema')).toEqual([expect.stringMatching(/Table types belong to the release code's repositories/)]);
    for (const allowed of ['kysely', '../../db/schema']) await expectAllowed(repositoryProbe, allowed);
  });

  it('its repositories import no domain code, of its own or of an area; a route never imports them', async () => {
    for (const target of [domain, service, file('api/src/services.ts')]) await expectBlocked(repositoryProbe, target, /The database layer sits below the services/);
    await expectAllowed(repositoryProbe, sourceFileIn('api/src/lib'));
    await expectAllowed(repositoryProbe, file('api/src/site/releases/canaries-repository.ts'));
    await expectBlocked('api/src/deploys/probe-routes.ts', repository, /Routes get services, never the database/);
    await expectAllowed('api/src/deploys/probe-routes.ts', domain);
  });
});

describe('a migration is frozen: it imports no live code', () => {
  const probe = 'api/src/db/migrations/probe.ts';

  it('blocks contracts, packages and every file outside migrations/, static or dynamic', async () => {
    for (const source of ['@site/contracts/posts', 'sanitize-html', 'zod', '../schema', '../../lib/clock', '../../config']) {
      await expectBlocked(probe, source, /A migration imports no live code/);
    }
    // The live sanitizer is domain code: the storage zone reports it as well.
    expect(await boundaryErrors(probe, '../../posts/sanitize-post-html')).toEqual(
      expect.arrayContaining([expect.stringMatching(/A migration imports no live code/), expect.stringMatching(/The database layer sits below the services/)]),
    );
    for (const source of ['../../lib/clock', '@site/contracts/posts']) {
      expect(await dynamicImportErrors(probe, source), `await import('${source}')`).toEqual([
        expect.stringMatching(/A migration imports no live code, not even by a dynamic import\(\)/),
      ]);
    }
  });

  it('allows kysely, node: built-ins and its own folder', async () => {
    for (const source of ['kysely', 'node:crypto', './migration', './0002-blog-seed']) await expectAllowed(probe, source);
    expect(await boundaryErrorsOf(probe, `import type { Kysely } from 'kysely';\nexport type T = Kysely<never>;\n`)).toEqual([]);
    expect(await dynamicImportErrors(probe, 'node:fs')).toEqual([]);
  });
});

describe('packages/contracts imports nothing but zod', () => {
  it('blocks packages, node built-ins and files outside its own folder', async () => {
    for (const source of ['@site/ui', 'react', 'node:crypto', 'node:fs', 'fs', '../package.json', '../../ui/src/index']) {
      await expectBlocked('packages/contracts/src/probe.ts', source, /packages\/contracts imports nothing but zod/);
    }
  });

  it('blocks a node built-in (or anything but zod) reached by a dynamic import, require() or process.getBuiltinModule()', async () => {
    const probe = 'packages/contracts/src/probe.ts';
    for (const source of ['node:fs', 'fs', '@site/ui', '../../ui/src/index']) {
      expect(await dynamicImportErrors(probe, source), `await import('${source}')`).toEqual([
        expect.stringMatching(/packages\/contracts imports nothing but zod \(and its own files\), not even by a dynamic import\(\)/),
      ]);
    }
    expect(await boundaryErrorsOf(probe, 'export const load = async (name: string) => await import(name);\n')).toEqual([
      expect.stringMatching(/not even by a dynamic import\(\)/),
    ]);
    expect(await boundaryErrorsOf(probe, "export const load = () => process.getBuiltinModule('node:fs');\n")).toEqual([
      expect.stringMatching(/not even by process\.getBuiltinModule\(\)/),
    ]);
    // (typescript-eslint's no-require-imports reports require() too; only the boundary's own message is asserted.)
    expect(await boundaryErrorsOf(probe, "export const load = () => require('node:fs');\n")).toEqual([expect.stringMatching(/not even by require\(\)/)]);
    for (const source of ['zod', 'zod/mini', './posts']) expect(await dynamicImportErrors(probe, source), `await import('${source}')`).toEqual([]);
  });

  it('allows zod and its own files; its tests may use dev dependencies', async () => {
    for (const source of ['zod', 'zod/mini', './posts']) await expectAllowed('packages/contracts/src/probe.ts', source);
    for (const source of ['fast-check', 'vitest', '../posts']) await expectAllowed('packages/contracts/src/__tests__/probe.test.ts', source);
  });
});

describe('what the lint leaves out', () => {
  it('the releases and staged builds a server writes into the repo (SITE_ROOT), as .gitignore does; not the sources beside them', async () => {
    // `npm start` imports the build as a release into <app>/releases/ when SITE_ROOT is the repo: built code that the
    // lint once read (751 errors in minified bundles) on the next `npm test`.
    for (const app of ['shell', ...REMOTES]) {
      expect(await eslint.isPathIgnored(path.join(ROOT, app, 'releases/1.0.0+build.0a1b2c3d/assets/index-abc.js')), `${app}/releases`).toBe(true);
      expect(await eslint.isPathIgnored(path.join(ROOT, app, 'staged/1.0.0+build.0a1b2c3d/remoteEntry.js')), `${app}/staged`).toBe(true);
      expect(await eslint.isPathIgnored(path.join(ROOT, app, 'src/app/App.tsx')), `${app}/src`).toBe(false);
    }
  });
});
