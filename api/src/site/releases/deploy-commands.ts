/*
 * The deployer's commands that change what everyone is served (release-deployer.ts): a deploy (or a staged one, or a
 * dry run of its checks) and a rollback. Each runs under the app's lock and goes to the deploy log as it happens.
 */
import { rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { ReleaseChange } from '@site/contracts/deploys';
import type { Canary, DeployActor, ReleaseDeployer } from '../../deploys/deployer-port';
import { ConflictError, NotFoundError } from '../../lib/domain-errors';
import type { DeployerContext } from './deployer-context';
import { moved } from './release-backends';
import type { BuildImports } from './release-builds';
import { canaryRunning, downgrade, exists, pickVersion, ReleaseRefusedError } from './release-checks';
import { RELEASE_NAME, RELEASES_DIR, remoteDir, type AppName } from './release-format';

export function createDeployCommands(
  { options, backend, checkedFolder, recorded, listedBy }: DeployerContext,
  builds: Pick<BuildImports, 'keepServedDist' | 'relativeDist' | 'firstServed'>,
  stopCanary: ReleaseDeployer['stopCanary'],
): Pick<ReleaseDeployer, 'deploy' | 'rollback'> {
  const { siteRoot, logger } = options;
  const { keepServedDist, relativeDist, firstServed } = builds;

  /**
   * A deploy's every check (issue 52): the name, format, shell fit, signature, smoke render and server module; unstaged,
   * also no canary running and no downgrade. Nothing is stored or logged (a pipeline may dry-run every change), and a
   * refusal raises no alert: the caller is told, as for a deploy.
   */
  async function dryRunDeploy(app: AppName, files: ReadonlyMap<string, Buffer>, actor: DeployActor, request: { version?: string; skipLoadCheck?: boolean; stage?: boolean; allowDowngrade?: boolean }): Promise<ReleaseChange> {
    const releases = path.join(remoteDir(siteRoot, app), RELEASES_DIR);
    const hadReleases = await exists(releases);
    try {
      const change = await backend.locked(app, async (store) => {
        const version = await pickVersion(app, files, request.version, (v) => store.taken(v));
        const pointer = await store.pointer();
        if (!request.stage) {
          const running = await store.canary();
          if (running) throw canaryRunning(app, running, 'deploying another release');
          downgrade(app, version, files, pointer?.version ?? null, request.allowDowngrade, `deploy it with --allow-downgrade (POST /api/releases/${app}?allowDowngrade=1)`);
        }
        const { dir, checked } = await checkedFolder(app, version, files, request.skipLoadCheck, true);
        await rm(dir, { recursive: true, force: true });
        return { app, version, previous: pointer?.version ?? null, checked, ...(request.stage ? { staged: true } : {}), dryRun: true as const };
      });
      logger.info({ app, version: change.version, by: actor.by, from: actor.from }, `${app} dry run: ${change.version} passed every check, nothing stored`);
      return change;
    } catch (error) {
      logger.info({ app, by: actor.by, from: actor.from, err: error }, `${app} dry run refused: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    } finally {
      // The checks' folder went with them; the releases folder too when the dry run made it (an app never deployed).
      if (!hadReleases) await rmdir(releases).catch(() => undefined);
    }
  }

  return {
    deploy(app, files, actor, { version: asked, skipLoadCheck, keptDist, stage, allowDowngrade, dryRun, provenance } = {}) {
      if (dryRun) return dryRunDeploy(app, files, actor, { version: asked, skipLoadCheck, stage, allowDowngrade });
      let named: string | null = asked ?? null;
      let downgraded: string | null = null;
      // What became of the dist served before a first deploy: the deploy log says it (history.json keeps only the fact).
      let distNote: string | null = null;
      return recorded(app, stage ? 'stage' : 'deploy', actor, () => named, () =>
        backend.locked(app, async (store) => {
          const version = await pickVersion(app, files, asked, (v) => store.taken(v));
          named = version;
          // Staged or not, checked the same (format, shell fit, signature, server module, its pages rendered): only then stored.
          const { dir, checked } = await checkedFolder(app, version, files, skipLoadCheck, true);
          try {
            if (stage) {
              const pointer = await store.pointer();
              await store.stage(version, dir, files, options.clock());
              const previewUrl = await options.previewLink?.(app, version);
              return { app, version, previous: pointer?.version ?? null, checked, staged: true, ...(previewUrl ? { previewUrl } : {}) };
            }
            // A canary compares its release with the served one: the served one does not change under it.
            const running = await store.canary();
            if (running) throw canaryRunning(app, running, 'deploying another release');
            const pointer = await store.pointer();
            downgraded = downgrade(app, version, files, pointer?.version ?? null, allowDowngrade, `deploy it with --allow-downgrade (POST /api/releases/${app}?allowDowngrade=1)`);
            const history = moved(pointer?.history ?? { stack: [] }, [...(pointer?.history.stack ?? [])]);
            const now = options.clock();
            let kept: string | null = null;
            if (!pointer) {
              const notice = await keepServedDist(app, store, history, now, version);
              if (notice) keptDist?.(notice);
              kept = notice && 'kept' in notice ? notice.kept.version : null;
              if (notice) distNote = 'kept' in notice ? `${relativeDist(app)}, served until now, kept as ${notice.kept.version}: the rollback target` : notice.notKept;
            }
            await store.store(version, dir, files, now);
            const below = pointer?.version ?? kept;
            if (below && history.stack.at(-1) !== below) history.stack.push(below);
            history.stack.push(version);
            await store.point(version, history);
            return { app, version, previous: pointer?.version ?? kept, checked };
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        }),
        () => [distNote, downgraded].filter(Boolean).join('; ') || null,
        provenance,
      );
    },

    async rollback(app, actor, { version: asked, skipLoadCheck } = {}) {
      // With a canary running, a rollback without a version ends the canary: everyone gets the served release again.
      if (asked === undefined) {
        const stopped = await stopCanary(app, actor, { outcome: 'stopped', reason: `stopped by ${actor.by} (a rollback request)` });
        if (stopped) return stopped;
      }
      let target: string | null = asked ?? null;
      let endedCanary: Canary | null = null;
      return recorded(app, 'rollback', actor, () => target, () =>
        backend.locked(app, async (store) => {
          const pointer = await store.pointer();
          // With a version, a pointer that names nothing (emptied by hand) is repaired too.
          if (!pointer && asked === undefined) throw new ConflictError(`${app} has no release yet: nothing to roll back`, { code: 'nothing_to_roll_back' });
          const current = pointer?.version ?? null;
          const history = pointer?.history ?? (await store.history());
          const { stack } = history;
          const at = current === null ? -1 : stack.lastIndexOf(current);
          let nextStack: string[];
          if (asked !== undefined) {
            target = asked;
            const index = stack.lastIndexOf(asked);
            nextStack = index >= 0 ? stack.slice(0, index + 1) : [...stack, asked];
          } else if (at > 0) {
            target = stack[at - 1]!;
            nextStack = stack.slice(0, at);
          } else if (at < 0 && stack.length > 0 && stack.at(-1) !== current) {
            // A pointer set by hand to a release outside the history: back to the last one deployed.
            target = stack.at(-1)!;
            nextStack = stack;
          } else {
            const bottom = firstServed(app, history, current!);
            throw new ConflictError(`${app} has no release before ${current} to roll back to${bottom ? `: ${bottom}, nothing earlier was kept` : ''}. Name one (${listedBy(app)} lists them)`, {
              code: 'nothing_to_roll_back',
            });
          }
          if (target === current) throw new ConflictError(`${app} already serves ${target}`, { code: 'already_served' });
          if (!RELEASE_NAME.test(target)) throw new ReleaseRefusedError(`${JSON.stringify(target.slice(0, 100))} is not a release name`);
          if (await store.staged(target)) throw new ConflictError(`release ${target} of ${app} is staged: serve it with POST /api/releases/${app}/promote`, { code: 'not_served_yet' });
          const files = await store.files(target);
          if (!files) throw new NotFoundError(`no release of ${app} is named ${target} (${listedBy(app)} lists them)`, { code: 'release_not_found' });
          // Checked again as it will be served now (the shell or the trusted keys may have changed since).
          const { dir, checked } = await checkedFolder(app, target, files, skipLoadCheck).catch((error: unknown) => {
            if (error instanceof ReleaseRefusedError) throw new ReleaseRefusedError(`cannot roll back to ${target}: ${error.message}`);
            throw error;
          });
          await rm(dir, { recursive: true, force: true });
          const now = options.clock();
          // A canary compared its release with the one served until now: it ends with it.
          const running = await store.canary();
          if (running) {
            await store.endCanary(running.id, { outcome: 'stopped', reason: `${app} was rolled back to ${target} by ${actor.by}`, at: now.toISOString() });
            endedCanary = running;
          }
          await store.point(target, moved(history, nextStack));
          return { app, version: target, previous: current, checked };
        }),
        () => (endedCanary ? `the canary of ${endedCanary.version} (${endedCanary.percent}% of visitors) ended with it` : null),
      );
    },
  };
}
