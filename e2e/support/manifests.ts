import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mfeManifestSchema, REMOTE_NAMES, type MfeManifest } from '@site/contracts/manifest';
import { REPO_ROOT } from './env';

/** The manifests the build wrote: the routes and page titles each remote declares. */
export function builtManifests(): MfeManifest[] {
  return REMOTE_NAMES.map((name) =>
    mfeManifestSchema.parse(JSON.parse(readFileSync(path.join(REPO_ROOT, `mfe-${name}/dist/mfe-manifest.json`), 'utf8'))),
  );
}
