import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/** The repository root (a checkout as SITE_ROOT: shell, the mfe- remotes, api). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Set to 1 by `npm test` (scripts/site.mjs) once it has built everything: from then on a missing build is a broken
 * build, and a suite that needs one fails instead of being skipped.
 */
export const REQUIRE_BUILD_ENV = 'SITE_REQUIRE_BUILD';

/** `undefined` when every file exists, else what is missing (paths relative to the repository). */
export function missingFiles(files: readonly string[]): string | undefined {
  const missing = files.filter((file) => !existsSync(path.resolve(REPO_ROOT, file)));
  return missing.length ? `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing` : undefined;
}

/** The built server entries every server-rendered page needs: the shell's and those of the public remotes. */
export const serverEntriesMissing = () =>
  missingFiles(['shell', 'mfe-marketing', 'mfe-blog', 'mfe-analysis'].map((dir) => `${dir}/dist/server/entry.js`));

/** What a suite that needs a build says when it is missing. */
export const notBuiltMessage = (missing: string) => `nothing is built: run npm run build (${missing})`;

/**
 * `describe` for a suite that needs built files. `missing` is what is missing (`undefined` when all is built).
 * Run by hand without a build, the suite is skipped with the reason in its title. Under `npm test`
 * (SITE_REQUIRE_BUILD=1) it is not skipped: it stands as one failing test saying what to build.
 * `unavailable` is another reason to skip (an outside service such as PostgreSQL that is not there), never a failure.
 */
export function describeNeedingBuild(title: string, need: { missing: string | undefined; unavailable?: string }, body: () => void): void {
  if (need.unavailable) {
    describe.skip(`${title} — skipped: ${need.unavailable}`, body);
  } else if (!need.missing) {
    describe(title, body);
  } else if (process.env[REQUIRE_BUILD_ENV] === '1') {
    const message = notBuiltMessage(need.missing);
    describe(title, () => {
      it('runs on the built site', () => {
        throw new Error(message);
      });
    });
  } else {
    describe.skip(`${title} — skipped: ${need.missing}: run npm run build`, body);
  }
}
