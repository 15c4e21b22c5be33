import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkStatsNow, refreshStats, statGeneration, statShared } from '../stat-shared';

describe('stats held in memory', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'stat-shared-'));
  });
  afterEach(async () => {
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
    expect((await statShared(file))?.size).toBe(7);
    expect(statGeneration()).toBeGreaterThan(generation);

    // Nothing changed: a check keeps the generation.
    const settled = statGeneration();
    await checkStatsNow();
    expect(statGeneration()).toBe(settled);
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
