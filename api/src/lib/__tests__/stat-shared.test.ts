import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkStatsNow, refreshStats, setStatCheckEvery, statGeneration, statShared } from '../stat-shared';

describe('stats held in memory', () => {
  let dir: string;
  let restore: () => void;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'stat-shared-'));
    // The once-a-second check runs when the test says (checkStatsNow), never in between.
    restore = setStatCheckEvery(3_600_000);
  });
  afterEach(async () => {
    restore();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers from memory until the check, which sees a change and moves the generation', async () => {
    const file = path.join(dir, 'current');
    await writeFile(file, '1.0.0\n');
    const first = await statShared(file);
    expect(first?.size).toBe(6);
    const generation = statGeneration();

    await writeFile(file, '10.0.0\n');
    // Not looked at again before the check: the same answer, the same generation.
    expect(await statShared(file)).toBe(first);
    expect(statGeneration()).toBe(generation);

    await checkStatsNow();
    const second = await statShared(file);
    expect(second?.size).toBe(7);
    expect(statGeneration()).toBeGreaterThan(generation);

    // Nothing changed in it: a check keeps its answer (other files of this process may have changed meanwhile).
    await checkStatsNow();
    expect(await statShared(file)).toBe(second);
  });

  it('remembers a missing file as missing until it appears, and forgets everything when this process changes the files', async () => {
    const file = path.join(dir, 'later');
    expect(await statShared(file)).toBeUndefined();
    await writeFile(file, 'x');
    expect(await statShared(file)).toBeUndefined();
    refreshStats();
    expect((await statShared(file))?.size).toBe(1);
  });
});
