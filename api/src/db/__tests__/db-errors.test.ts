import path from 'node:path';
import { Writable } from 'node:stream';
import Database from 'libsql';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger';
import { errors, toEnvelope } from '../../middleware/errors';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { asDatabaseUnavailable, DatabaseUnavailableError, databaseUnavailableReason } from '../db-errors';
import { SQLITE_FILE_NAME } from '../database';

const pgError = (code: string, message = 'server said no') => Object.assign(new Error(message), { code, severity: 'ERROR' });

describe('which database failures are "not answering now" (503) and which are bugs (500)', () => {
  const UNAVAILABLE: Array<[string, unknown, 'down' | 'busy']> = [
    ['57P01 admin_shutdown', pgError('57P01', 'terminating connection due to administrator command'), 'down'],
    ['57P02 crash_shutdown', pgError('57P02'), 'down'],
    ['57P03 cannot_connect_now', pgError('57P03', 'the database system is starting up'), 'down'],
    ['08006 connection_failure', pgError('08006'), 'down'],
    ['08001 cannot establish', pgError('08001'), 'down'],
    ['53300 too_many_connections', pgError('53300'), 'busy'],
    ['57014 statement timeout', pgError('57014', 'canceling statement due to statement timeout'), 'busy'],
    ['55P03 lock_not_available', pgError('55P03'), 'busy'],
    ['pool acquire timeout', new Error('timeout exceeded when trying to connect'), 'busy'],
    ['client read timeout', new Error('Query read timeout'), 'busy'],
    ['connection terminated', new Error('Connection terminated unexpectedly'), 'down'],
    ['connect timeout', new Error('Connection terminated due to connection timeout', { cause: new Error('x') }), 'down'],
    ['client not queryable', new Error('Client has encountered a connection error and is not queryable'), 'down'],
    ['SQLITE_BUSY', Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' }), 'busy'],
  ];

  it.each(UNAVAILABLE)('%s → 503 database_unavailable with Retry-After', (_name, error, reason) => {
    expect(databaseUnavailableReason(error)).toBe(reason);
    expect(toEnvelope(error)).toEqual({
      status: 503,
      envelope: { error: { code: 'database_unavailable', message: 'The database is not answering right now. Please try again in a moment.' } },
      headers: { 'Retry-After': '5' },
    });
  });

  it('socket errors count only when the database driver raised them (a provider refusing a connection is not the database)', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(toEnvelope(refused).status).toBe(500);
    const fromDriver = asDatabaseUnavailable(refused, 'select 1');
    expect(fromDriver).toBeInstanceOf(DatabaseUnavailableError);
    expect(fromDriver).toMatchObject({ reason: 'down', query: 'select 1' });
    expect(toEnvelope(fromDriver).status).toBe(503);
    // A dual-stack connect fails with both addresses' errors.
    expect(asDatabaseUnavailable(new AggregateError([refused, refused]))?.reason).toBe('down');
  });

  it('a bug, bad SQL or a constraint stays what it is', () => {
    for (const error of [new TypeError('x is undefined'), pgError('42P01', 'relation "nope" does not exist'), pgError('23505', 'duplicate key'), 'a string']) {
      expect(databaseUnavailableReason(error)).toBeUndefined();
      expect(asDatabaseUnavailable(error, 'select 1')).toBeUndefined();
    }
    expect(toEnvelope(new TypeError('x is undefined')).status).toBe(500);
    expect(toEnvelope(pgError('42P01')).status).toBe(500);
  });
});

describe('the error middleware during an outage', () => {
  it('logs one warning per request naming the query, and alerts the owner once, not per request', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const alerts: string[] = [];
    const app = new Koa();
    app.use(errors({ logger: createLogger({ level: 'warn', destination }), onServerError: ({ path }) => alerts.push(path) }));
    app.use((ctx) => {
      if (ctx.path === '/api/bug') throw new Error('a bug');
      throw new DatabaseUnavailableError({ reason: 'busy', query: 'select * from "blog_posts" where "slug" = $1', cause: pgError('57014', 'canceling statement due to statement timeout') });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      for (const p of ['/api/a', '/api/b', '/api/c']) {
        const response = await fetch(url + p);
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('5');
        expect(await response.json()).toMatchObject({ error: { code: 'database_unavailable' } });
      }
      expect((await fetch(`${url}/api/bug`)).status).toBe(500);
      const warnings = lines.filter((l) => l.msg === 'database did not answer in time');
      expect(warnings).toHaveLength(3);
      expect(warnings[0]).toMatchObject({ query: 'select * from "blog_posts" where "slug" = $1', cause: { code: '57014' } });
      // One alert for the outage, and the bug's own.
      expect(alerts).toEqual(['/api/a', '/api/bug']);
    } finally {
      server.close();
    }
  });
});

describe('SQLite: a write lock held by another process past the busy timeout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { DB_STATEMENT_TIMEOUT_MS: '200', RATE_LIMIT_MULTIPLIER: '100' } });
  });
  afterAll(() => server.close());

  it('answers 503 database_unavailable (contact keeps { success: false, message }), then works once the lock goes', async () => {
    const other = new Database(path.join(server.dataDir, SQLITE_FILE_NAME));
    const send = () =>
      fetch(`${server.url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', message: 'We miss calls at lunch time. Can an assistant answer them?' }),
      });
    try {
      other.exec('BEGIN IMMEDIATE');
      const locked = await send();
      expect(locked.status).toBe(503);
      expect(locked.headers.get('retry-after')).toBe('5');
      expect(await locked.json()).toMatchObject({
        success: false,
        message: 'The database is not answering right now. Please try again in a moment.',
        error: { code: 'database_unavailable' },
      });
      other.exec('ROLLBACK');
      const sent = await send();
      expect(sent.status).toBe(200);
      expect(await sent.json()).toMatchObject({ success: true });
    } finally {
      other.close();
    }
  });
});
