import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger';
import { startTestServer, type TestServer } from '../../test-support/test-server';

describe('request log', () => {
  const lines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    server = await startTestServer({ deps: { logger } });
  });
  afterAll(() => server.close());

  it('logs one structured line per request with secrets redacted', async () => {
    await fetch(`${server.url}/api/health?probe=1`, {
      headers: {
        cookie: 'session=cookie-secret',
        authorization: 'Bearer token-secret',
        'x-webhook-signature': 'sha256=signature-secret',
      },
    });
    const entry = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request completed' && l.req?.url === '/api/health?probe=1');
    expect(entry).toMatchObject({ req: { method: 'GET' }, res: { statusCode: 200 }, responseTime: expect.any(Number) });
    expect(entry.req.headers).toMatchObject({
      cookie: '[redacted]',
      authorization: '[redacted]',
      'x-webhook-signature': '[redacted]',
    });
    const all = lines.join('\n');
    for (const secret of ['cookie-secret', 'token-secret', 'signature-secret']) expect(all).not.toContain(secret);
  });
});
