import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorEnvelopeSchema } from '@site/contracts/error';
import { startTestServer, type TestRoutes, type TestServer } from '../../test-support/test-server';

const failingRoutes: TestRoutes = (router) => {
  router.get('/api/test/crash', () => {
    const error = new Error('database password is hunter2');
    throw error;
  });
  router.get('/api/test/invalid', () => {
    z.object({ email: z.email(), age: z.number() }).parse({ email: 'nope' });
  });
  router.get('/api/test/html-then-crash', (ctx) => {
    ctx.type = 'text/html';
    throw new Error('late failure');
  });
};

describe('error envelope', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ routes: [failingRoutes] });
  });
  afterAll(() => server.close());

  it('answers an unknown /api path with a 404 envelope', async () => {
    const response = await fetch(`${server.url}/api/no-such-thing`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(errorEnvelopeSchema.parse(await response.json()).error.code).toBe('not_found');
  });

  it('answers an unexpected failure with a generic 500 and no stack', async () => {
    const response = await fetch(`${server.url}/api/test/crash`);
    expect(response.status).toBe(500);
    const text = await response.text();
    const { error } = errorEnvelopeSchema.parse(JSON.parse(text));
    expect(error.code).toBe('internal_error');
    expect(text).not.toContain('hunter2');
    expect(text).not.toMatch(/\bat .*\.ts:\d+/);
    expect(text).not.toContain('stack');
  });

  it('keeps the envelope JSON even when the route had set another type', async () => {
    const response = await fetch(`${server.url}/api/test/html-then-crash`);
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('turns a zod error into 400 validation_failed naming each field', async () => {
    const response = await fetch(`${server.url}/api/test/invalid`);
    expect(response.status).toBe(400);
    const { error } = errorEnvelopeSchema.parse(await response.json());
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(/email: .*; age: /);
    expect(error.details).toEqual([
      { path: 'email', message: expect.any(String) },
      { path: 'age', message: expect.any(String) },
    ]);
  });

  it('answers OPTIONS on a known path with its methods', async () => {
    const response = await fetch(`${server.url}/api/events`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toContain('POST');
  });
});
