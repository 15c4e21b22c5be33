import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventsRepository, type StoredEvent } from '../events-repository';
import { testBackends, type TestDatabase } from '../../test-support/databases';

const event = (overrides: Partial<StoredEvent>): StoredEvent => ({
  id: crypto.randomUUID(),
  name: 'page_view',
  props: null,
  path: '/',
  at: '2026-01-01T00:00:00.000Z',
  receivedAt: '2026-01-01T00:00:01.000Z',
  ...overrides,
});

describe.each(testBackends())('events repository on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.dispose());

  it('stores events and lists them newest first, with their properties', async () => {
    const repo = createEventsRepository(database.handle.db);
    await repo.insert(event({ id: 'a', at: '2026-01-01T10:00:00.000Z', props: { depth: 50, label: 'half', ok: true, none: null } }));
    await repo.insert(event({ id: 'b', at: '2026-01-02T10:00:00.000Z', name: 'scroll_depth' }));
    await repo.insert(event({ id: 'c', at: '2026-01-03T10:00:00.000Z' }));

    expect((await repo.list()).map((e) => e.id)).toEqual(['c', 'b', 'a']);
    const [first] = await repo.list({ name: 'page_view', limit: 1 });
    expect(first).toMatchObject({ id: 'c', props: null, path: '/' });
    const withProps = (await repo.list()).find((e) => e.id === 'a');
    expect(withProps?.props).toEqual({ depth: 50, label: 'half', ok: true, none: null });
  });

  it('counts by name and time', async () => {
    const repo = createEventsRepository(database.handle.db);
    expect(await repo.count()).toBe(3);
    expect(await repo.count({ name: 'page_view' })).toBe(2);
    expect(await repo.count({ since: '2026-01-02T00:00:00.000Z' })).toBe(2);
  });

  it('refuses a duplicate id', async () => {
    const repo = createEventsRepository(database.handle.db);
    await expect(repo.insert(event({ id: 'a' }))).rejects.toThrow();
  });

  it('reports itself reachable', async () => {
    expect(await database.handle.ping()).toBe(true);
  });
});
