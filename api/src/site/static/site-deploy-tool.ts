import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { strongEtag } from '../../lib/etag';

/*
 * GET /site-deploy.mjs (issue 52): the one-file deploy tool (api/src/site/releases/site-deploy-cli.ts, bundled by
 * api/build-site-deploy.mjs), served by the site it deploys to, so a pipeline runs the version that matches it.
 */

export const SITE_DEPLOY_PATH = '/site-deploy.mjs';

export interface SiteDeployTool {
  body: Buffer;
  /** A strong validator: the content's hash. */
  etag: string;
}

const toolOf = (body: Buffer): SiteDeployTool => ({ body, etag: strongEtag(body) });

let built: { key: string; tool: SiteDeployTool } | undefined;
let fromSources: Promise<SiteDeployTool> | undefined;

/**
 * The tool: in a build, dist/site-deploy.mjs beside dist/server.js (read again when a build replaces it); run from the
 * TypeScript sources (vitest), built once in memory by the same build code. Null when a build lacks it.
 */
export async function siteDeployTool(): Promise<SiteDeployTool | null> {
  const file = fileURLToPath(new URL('./site-deploy.mjs', import.meta.url));
  const info = await stat(file).catch(() => null);
  if (info?.isFile()) {
    const key = `${info.ino}:${info.mtimeMs}:${info.size}`;
    if (built?.key !== key) built = { key, tool: toolOf(await readFile(file)) };
    return built.tool;
  }
  if (!import.meta.url.endsWith('.ts')) return null;
  if (!fromSources) {
    const building = import(new URL('../../../build-site-deploy.mjs', import.meta.url).href).then(async (module: { buildSiteDeploy(options: { write: false }): Promise<string> }) =>
      toolOf(Buffer.from(await module.buildSiteDeploy({ write: false }))),
    );
    fromSources = building;
    // A failed build is not kept: the next request tries again.
    building.catch(() => {
      if (fromSources === building) fromSources = undefined;
    });
  }
  return fromSources;
}
