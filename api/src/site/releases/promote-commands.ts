/*
 * Promoting a staged release (release-deployer.ts): to everyone, or to a share of visitors as a canary (issue 34),
 * and ending a running canary. Each runs under the app's lock and goes to the deploy log as it happens.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { ReleaseChange } from '@site/contracts/deploys';
import type { Canary, DeployActor, ReleaseDeployer } from '../../deploys/deployer-port';
import { ConflictError, InvalidInputError, NotFoundError } from '../../lib/domain-errors';
import type { DeployerContext } from './deployer-context';
import { moved } from './release-backends';
import { canaryRunning, downgrade, ReleaseRefusedError } from './release-checks';
import type { AppName } from './release-format';

export function createPromoteCommands({ options, backend, checkedFolder, recorded, listedBy }: DeployerContext): Pick<ReleaseDeployer, 'promote' | 'stopCanary'> {
  /**
   * A staged release served to `percent` of visitors (issue 34): checked again as it will be served, then a canary row
   * (one per app). Promoting the running canary's release again with another share changes its share.
   */
  function startCanary(app: AppName, actor: DeployActor, request: { version: string; percent: number; promoteAfter: string | null; skipLoadCheck?: boolean; allowDowngrade?: boolean }): Promise<ReleaseChange> {
    const { version, percent, promoteAfter } = request;
    let changed: { canary: Canary; started: boolean } | undefined;
    let downgraded: string | null = null;
    return recorded(app, 'canary', actor, () => version, () =>
      backend.locked(app, async (store) => {
        const now = options.clock();
        const pointer = await store.pointer();
        const running = await store.canary();
        if (running && running.version !== version) throw canaryRunning(app, running, `a canary of ${version}`);
        const files = await store.staged(version);
        if (!files) {
          if (pointer?.version === version) throw new ConflictError(`${app} already serves ${version} to everyone`, { code: 'already_served' });
          if (await store.taken(version)) throw new ConflictError(`release ${version} of ${app} is not staged: a canary serves a staged release (POST /api/releases/${app}?stage=1)`, { code: 'not_staged' });
          throw new NotFoundError(`no staged release of ${app} is named ${version} (${listedBy(app)} lists them)`, { code: 'release_not_found' });
        }
        // Which release first (404, 409), then what is asked of it.
        if (app === 'shell') throw new ReleaseRefusedError(`the shell is served to everyone or to no one (a canary is for a remote): promote ${version} without percent`);
        if (promoteAfter !== null && Date.parse(promoteAfter) <= now.getTime()) throw new InvalidInputError(`promoteAfter (${promoteAfter}) has passed: name a time to come`, { code: 'promote_after_passed' });
        if (!pointer) throw new ConflictError(`${app} serves no release yet, so a canary has nothing to compare with: promote ${version} to everyone`, { code: 'nothing_served' });
        if (!running) downgraded = downgrade(app, version, files, pointer.version, request.allowDowngrade, `promote it with --allow-downgrade ({"allowDowngrade": true})`);
        // Checked again as it will be served now (the shell or the trusted keys may have changed since it was staged).
        const { dir, checked } = await checkedFolder(app, version, files, request.skipLoadCheck).catch((error: unknown) => {
          if (error instanceof ReleaseRefusedError) throw new ReleaseRefusedError(`cannot serve ${version} as a canary: ${error.message}`);
          throw error;
        });
        await rm(dir, { recursive: true, force: true });
        if (running) {
          await store.changeCanary(running.id, { percent, promoteAfter });
          changed = { canary: { ...running, percent, promoteAfter }, started: false };
        } else {
          const canary: Canary = { id: `can_${randomBytes(9).toString('base64url')}`, app: app as Canary['app'], version, current: pointer.version, percent, startedAt: now.toISOString(), promoteAfter, by: actor.by };
          await store.startCanary(canary);
          changed = { canary, started: true };
        }
        return { app, version, previous: pointer.version, checked, percent, ...(promoteAfter ? { promoteAfter } : {}) };
      }),
      (change) =>
        `${changed?.started ? 'serves' : 'now serves'} ${change.version} to ${percent}% of visitors (sticky per visitor); the others keep ${change.previous}` +
        (promoteAfter ? `; served to everyone at ${promoteAfter} unless rolled back before` : '') +
        (downgraded ? `; ${downgraded}` : ''),
    );
  }

  /**
   * Ends the running canary (only `end.id` when given): `canary_rollback` in the log; null when none runs. Answers as a
   * rollback does: `version` is what everyone is served now, `previous` the canary's release.
   */
  async function stopCanary(app: AppName, actor: DeployActor, end: { id?: string; outcome: 'rolled_back' | 'stopped'; reason: string }): Promise<ReleaseChange | null> {
    const canary = await backend.locked(app, async (store) => {
      const running = await store.canary();
      if (!running || (end.id !== undefined && running.id !== end.id)) return null;
      await store.endCanary(running.id, { outcome: end.outcome, reason: end.reason, at: options.clock().toISOString() });
      return running;
    });
    if (!canary) return null;
    // The log names the canary's release (what was rolled back) and the one everyone gets again.
    await recorded(
      app,
      'canary_rollback',
      actor,
      () => canary.version,
      async () => ({ app, version: canary.version, previous: canary.current, checked: [] }),
      () => `${end.reason}. Everyone gets ${canary.current} again (the canary served ${canary.version} to ${canary.percent}% of visitors since ${canary.startedAt}).`,
    );
    // The caller is told as for a rollback: what everyone is served now, and what (some) were served before.
    return { app, version: canary.current, previous: canary.version, checked: [] };
  }

  return {
    promote(app, actor, { version, percent, promoteAfter, skipLoadCheck, allowDowngrade }) {
      // 100, or no percent: everyone. Below: a canary of that share.
      if (percent !== undefined && percent < 100) return startCanary(app, actor, { version, percent, promoteAfter: promoteAfter ?? null, skipLoadCheck, allowDowngrade });
      let endedCanary: Canary | null = null;
      let downgraded: string | null = null;
      return recorded(app, 'promote', actor, () => version, () =>
        backend.locked(app, async (store) => {
          const pointer = await store.pointer();
          const running = await store.canary();
          if (running && running.version !== version) throw canaryRunning(app, running, `promoting ${version}`);
          const files = await store.staged(version);
          if (!files) {
            if (pointer?.version === version) throw new ConflictError(`${app} already serves ${version}`, { code: 'already_served' });
            if (await store.taken(version)) {
              throw new ConflictError(`release ${version} of ${app} is not staged: serve it again with POST /api/releases/${app}/rollback`, { code: 'not_staged' });
            }
            throw new NotFoundError(`no staged release of ${app} is named ${version} (${listedBy(app)} lists them)`, { code: 'release_not_found' });
          }
          if (promoteAfter !== undefined) throw new InvalidInputError(`promoteAfter goes with a canary (a percent below 100): ${version} would be served to everyone now`, { code: 'promote_after_without_canary' });
          // A canary of it was let through already (with the flag, if it was a downgrade).
          if (!running) downgraded = downgrade(app, version, files, pointer?.version ?? null, allowDowngrade, `promote it with --allow-downgrade ({"allowDowngrade": true})`);
          // Checked again as it will be served now (the shell or the trusted keys may have changed since it was staged).
          const { dir, checked } = await checkedFolder(app, version, files, skipLoadCheck).catch((error: unknown) => {
            if (error instanceof ReleaseRefusedError) throw new ReleaseRefusedError(`cannot promote ${version}: ${error.message}`);
            throw error;
          });
          try {
            const before = pointer?.history ?? (await store.history());
            const history = moved(before, [...before.stack]);
            const now = options.clock();
            await store.unstage(version, dir, now);
            if (pointer && history.stack.at(-1) !== pointer.version) history.stack.push(pointer.version);
            history.stack.push(version);
            // Its canary ends as it becomes the served release (in the same transaction on PostgreSQL).
            if (running) {
              await store.endCanary(running.id, { outcome: 'promoted', reason: `served to everyone by ${actor.by}`, at: now.toISOString() });
              endedCanary = running;
            }
            await store.point(version, history);
            return { app, version, previous: pointer?.version ?? null, checked };
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        }),
        (change) =>
          [endedCanary ? `served to everyone after a canary at ${endedCanary.percent}% since ${endedCanary.startedAt}; ${change.previous ?? 'nothing'} was served before` : null, downgraded]
            .filter(Boolean)
            .join('; ') || null,
      );
    },
    stopCanary,
  };
}
