import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildHere, DeployError, REPO_ROOT } from './common.mjs';
import { server } from './server.mjs';

/*
 * Over HTTP (issues 33 and 52): the commands of the one-file deploy tool the site serves at /site-deploy.mjs
 * (api/src/site/releases/deploy-over-http.ts, built as api/dist/site-deploy.mjs beside the deployer), run with this clone's
 * build and, before anything is sent, the server's own format and policy check with this environment (APP_ROUTES_*,
 * RELEASE_MAX_*). Nothing but the site's URL, the token and the key is needed.
 */
export async function overHttp(command, name, values) {
  const tool = await import(pathToFileURL(path.join(REPO_ROOT, 'api', 'dist', 'site-deploy.mjs')).href);
  const from = command === 'deploy' ? (values.from ? path.resolve(values.cwd, values.from) : buildHere(name)) : undefined;
  const check = async (dir, app) => {
    const result = app === 'shell' ? await server.checkShellRelease(dir) : await server.checkRelease(dir, app);
    return result.ok ? { ok: true, version: app === 'shell' ? result.version : result.manifest.version } : result;
  };
  const hint = (next, app, args) => (next === 'list' || next === 'status' ? `node scripts/deploy-remote.mjs ${next} ${app} ${args}` : `npm run ${next} -- ${app} ${args}`);
  try {
    return await tool.runOverHttp(
      command,
      name,
      tool.overHttpOptions(values, { to: values.to, from, key: values.key ? path.resolve(values.cwd, values.key) : undefined }),
      { env: process.env, cwd: values.cwd, out: (line) => console.log(line), hint, check },
    );
  } catch (error) {
    throw error instanceof tool.DeployToolError ? new DeployError(error.message) : error;
  }
}
