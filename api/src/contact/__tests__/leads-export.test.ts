import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/database';
import { createContactRepository } from '../contact-repository';
import { createLeadsRepository } from '../leads-repository';
import { createLeadsService } from '../leads-service';

/*
 * The inbox export holds every message, however many there are: it stopped at the first 10,000 and said nothing
 * (the load benchmark's 26,838 messages came out as 10,000).
 */
describe('the contact messages export', () => {
  let dataDir: string;
  let handle: DatabaseHandle;
  // More than the 10,000 it used to stop at.
  const MESSAGES = 10_050;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'leads-export-'));
    handle = await openDatabase({ dataDir, databaseUrl: undefined });
    const contacts = createContactRepository(handle.db);
    const start = Date.parse('2026-11-01T00:00:00Z');
    for (let i = 0; i < MESSAGES; i++) {
      await contacts.insert({
        id: `m-${String(i).padStart(5, '0')}`,
        // Some share a second, as a busy form's do: none is skipped or repeated.
        createdAt: new Date(start + Math.floor(i / 3) * 1000).toISOString(),
        ipHash: 'hash',
        userAgent: null,
        name: `Visitor ${i}`,
        email: `visitor${i}@example.com`,
        company: null,
        subject: null,
        message: `Message number ${i}`,
        mailStatus: 'sent',
        mailAttempts: 1,
        mailNextAttemptAt: null,
        mailLastError: null,
        mailSentAt: null,
      });
    }
  }, 60_000);
  afterAll(async () => {
    await handle?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('has one row per message, each once, past the 10,000 it used to stop at', async () => {
    const leads = createLeadsService({ leads: createLeadsRepository(handle.db), clock: () => new Date() });
    let csv = '';
    for await (const piece of leads.exportCsv({ q: undefined, filter: 'all' })) csv += piece;
    const names = [...csv.matchAll(/"Visitor (\d+)"/g)].map((m) => Number(m[1]));
    expect(names).toHaveLength(MESSAGES);
    expect(new Set(names).size).toBe(MESSAGES);
    // Newest first, as the inbox lists them (messages of one second by id).
    expect(Math.floor(names[0]! / 3)).toBe(Math.floor((MESSAGES - 1) / 3));
  });
});
