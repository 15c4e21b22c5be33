import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger';
import { formatTraceparent, parseTraceparent } from '../lib/trace-context';
import { testBackends, uniqueSchema } from '../test-support/databases';
import { contactMessage, waitFor } from '../test-support/site-client';
import { startTestServer, type TestServer } from '../test-support/test-server';
import { startMailbox } from '../test-support/mailbox';
import { otlpReceiver } from '../test-support/otlp-receiver';

// W3C Trace Context (issue 35): a trusted proxy's `traceparent` is continued through a visitor's contact message, the
// lead stored, the owner mail (SMTP) and the webhook delivery to n8n; a client's, or a malformed one, starts a new trace.

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PROXY_SPAN = '00f067aa0ba902b7';
const PROXY_TRACEPARENT = `00-${TRACE}-${PROXY_SPAN}-01`;

describe('parseTraceparent', () => {
  it('reads version 00 exactly, keeping the sampled flag only', () => {
    expect(parseTraceparent(PROXY_TRACEPARENT)).toEqual({ traceId: TRACE, spanId: PROXY_SPAN, flags: '01' });
    expect(parseTraceparent(`00-${TRACE}-${PROXY_SPAN}-00`)?.flags).toBe('00');
    expect(parseTraceparent(`00-${TRACE}-${PROXY_SPAN}-03`)?.flags).toBe('01');
    expect(parseTraceparent(`00-${TRACE}-${PROXY_SPAN}-02`)?.flags).toBe('00');
    expect(formatTraceparent(parseTraceparent(PROXY_TRACEPARENT)!)).toBe(PROXY_TRACEPARENT);
  });

  it('reads a later version as version 00 when what follows is a new field, as the specification says', () => {
    expect(parseTraceparent(`01-${TRACE}-${PROXY_SPAN}-01`)?.traceId).toBe(TRACE);
    expect(parseTraceparent(`cc-${TRACE}-${PROXY_SPAN}-01-what-the-future-adds`)?.spanId).toBe(PROXY_SPAN);
    expect(parseTraceparent(`cc-${TRACE}-${PROXY_SPAN}-01x`)).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['version ff', `ff-${TRACE}-${PROXY_SPAN}-01`],
    ['version 00 with more after it', `00-${TRACE}-${PROXY_SPAN}-01-extra`],
    ['all-zero trace id', `00-${'0'.repeat(32)}-${PROXY_SPAN}-01`],
    ['all-zero parent id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['uppercase hex', `00-${TRACE.toUpperCase()}-${PROXY_SPAN}-01`],
    ['short trace id', `00-${TRACE.slice(1)}-${PROXY_SPAN}-01`],
    ['non-hex', `00-${TRACE.slice(0, 31)}g-${PROXY_SPAN}-01`],
    ['wrong separator', `00_${TRACE}-${PROXY_SPAN}-01`],
    ['surrounding space', ` ${PROXY_TRACEPARENT}`],
    ['two headers joined', `${PROXY_TRACEPARENT}, ${PROXY_TRACEPARENT}`],
    ['one-character flags', `00-${TRACE}-${PROXY_SPAN}-1`],
    ['a long hostile value', `cc-${TRACE}-${PROXY_SPAN}-01-${'-'.repeat(100_000)}`],
  ])('refuses %s', (_what, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  it('refuses a header sent several times (an array)', () => {
    expect(parseTraceparent([PROXY_TRACEPARENT, PROXY_TRACEPARENT])).toBeUndefined();
    expect(parseTraceparent(undefined)).toBeUndefined();
  });
});

/** n8n on loopback: the headers and body of every delivery received. */
async function startReceiver() {
  const received: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const TRACEPARENT_LINE = /^traceparent: *(\S+)\r?$/im;

describe.each(testBackends().map((b) => b.name))('one trace from the contact form to the mail and the delivery (%s)', (backend) => {
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let proxied: TestServer;
  let direct: TestServer;
  const schemas = [uniqueSchema(), uniqueSchema()];
  const lines: Array<Record<string, unknown>> = [];

  async function start(env: Record<string, string>, schema: string) {
    const server = await startTestServer({
      env: {
        ...env,
        SMTP_URL: mailbox.url,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        RATE_LIMIT_MULTIPLIER: '100',
        ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}),
      },
      deps: {
        logger: createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } }),
        ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}),
      },
    });
    await server.instance.services.webhooksOut.createEndpoint({ url: receiver.url, description: 'n8n', events: ['lead.created'] });
    return server;
  }

  beforeAll(async () => {
    mailbox = await startMailbox();
    receiver = await startReceiver();
    proxied = await start({ TRUST_PROXY: 'true' }, schemas[0]!);
    direct = await start({}, schemas[1]!);
  });
  afterAll(async () => {
    await proxied?.close();
    await direct?.close();
    await receiver?.close();
    await mailbox?.close();
  });

  /**
   * Sends a contact message (a unique subject), waits for its mail and its delivery, and answers the `traceparent`
   * stored with the lead, the mail's and the delivery's.
   */
  async function follow(server: TestServer, headers: Record<string, string>) {
    const message = contactMessage(`trace-${Math.random().toString(36).slice(2)}`);
    const answer = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.config.publicOrigin, ...headers },
      body: JSON.stringify(message),
    });
    expect(answer.status).toBe(200);
    const requestId = answer.headers.get('x-request-id');
    const lead = await server.instance.db.selectFrom('contact_messages').selectAll().where('subject', '=', message.subject).executeTakeFirstOrThrow();
    let mail: string | undefined;
    let delivery: (typeof receiver.received)[number] | undefined;
    await waitFor(() => {
      mail = mailbox.received.find((raw) => raw.includes(message.subject));
      delivery = receiver.received.find((r) => r.body.includes(message.subject));
      return mail !== undefined && delivery !== undefined;
    }, 10_000, 'the mail and the delivery');
    return {
      requestId,
      lead: parseTraceparent(lead.traceparent ?? undefined),
      mail: parseTraceparent(TRACEPARENT_LINE.exec(mail!)?.[1]),
      delivery: parseTraceparent(delivery!.headers.traceparent),
    };
  }

  it("continues a trusted proxy's trace: the lead, the mail and the delivery carry its trace id, each send a span of its own", async () => {
    const seen = await follow(proxied, { traceparent: PROXY_TRACEPARENT });
    expect(seen.lead?.traceId).toBe(TRACE);
    expect(seen.mail?.traceId).toBe(TRACE);
    expect(seen.delivery?.traceId).toBe(TRACE);
    // The request is a span under the proxy's; the mail and the delivery are spans of their own under the request's.
    const spans = [PROXY_SPAN, seen.lead!.spanId, seen.mail!.spanId, seen.delivery!.spanId];
    expect(new Set(spans).size).toBe(4);
    expect([seen.lead!.flags, seen.mail!.flags, seen.delivery!.flags]).toEqual(['01', '01', '01']);

    // The request's log lines and the lines of sending what it queued carry the trace id beside the request id.
    const mine = lines.filter((l) => l.requestId === seen.requestId);
    expect(mine.map((l) => l.msg)).toContain('request completed');
    for (const line of mine) expect(line.traceId, String(line.msg)).toBe(TRACE);
  });

  it("keeps an unsampled proxy trace unsampled", async () => {
    const seen = await follow(proxied, { traceparent: `00-${TRACE}-${PROXY_SPAN}-00` });
    expect([seen.lead, seen.mail, seen.delivery].map((t) => `${t?.traceId} ${t?.flags}`)).toEqual(Array(3).fill(`${TRACE} 00`));
  });

  it('ignores the header when no proxy is trusted: a new trace, the same through the lead, the mail and the delivery', async () => {
    const seen = await follow(direct, { traceparent: PROXY_TRACEPARENT });
    expect(seen.lead?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(seen.lead!.traceId).not.toBe(TRACE);
    expect(seen.mail?.traceId).toBe(seen.lead!.traceId);
    expect(seen.delivery?.traceId).toBe(seen.lead!.traceId);
    expect(lines.find((l) => l.requestId === seen.requestId && l.msg === 'request completed')?.traceId).toBe(seen.lead!.traceId);
  });

  it('starts a new trace for a malformed header from the trusted proxy', async () => {
    const malformed = [`00-${'0'.repeat(32)}-${PROXY_SPAN}-01`, `00-${TRACE.toUpperCase()}-${PROXY_SPAN}-01`, `00-${TRACE}-${PROXY_SPAN}-01-x`, `ff-${TRACE}-${PROXY_SPAN}-01`, 'garbage'];
    const traces = new Set<string>();
    for (const value of malformed) {
      const seen = await follow(proxied, { traceparent: value });
      expect(seen.lead?.traceId, value).toMatch(/^[0-9a-f]{32}$/);
      expect(seen.lead!.traceId, value).not.toBe(TRACE);
      expect(seen.mail?.traceId, value).toBe(seen.lead!.traceId);
      expect(seen.delivery?.traceId, value).toBe(seen.lead!.traceId);
      traces.add(seen.lead!.traceId);
    }
    expect(traces.size).toBe(malformed.length);
  });
});

describe('with OpenTelemetry tracing on, the headers name the exported spans', () => {
  let otlp: Awaited<ReturnType<typeof otlpReceiver>>;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let server: TestServer;
  beforeAll(async () => {
    otlp = await otlpReceiver();
    mailbox = await startMailbox();
    receiver = await startReceiver();
    server = await startTestServer({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, TRUST_PROXY: 'true', SMTP_URL: mailbox.url, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    await server.instance.services.webhooksOut.createEndpoint({ url: receiver.url, events: ['lead.created'] });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await mailbox?.close();
    await otlp?.close();
  });

  it('the request span continues the proxy, the mail and the delivery are its smtp and webhook spans', async () => {
    const answer = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.config.publicOrigin, traceparent: PROXY_TRACEPARENT },
      body: JSON.stringify(contactMessage('otel')),
    });
    expect(answer.status).toBe(200);
    await waitFor(() => mailbox.received.length === 1 && receiver.received.length === 1, 10_000, 'the mail and the delivery');
    const lead = await server.instance.db.selectFrom('contact_messages').selectAll().executeTakeFirstOrThrow();
    const stored = parseTraceparent(lead.traceparent ?? undefined)!;
    const mail = parseTraceparent(TRACEPARENT_LINE.exec(mailbox.received[0]!)?.[1])!;
    const delivery = parseTraceparent(receiver.received[0]!.headers.traceparent)!;
    await waitFor(
      async () => {
        await server.instance.flushTraces();
        return ['POST /api/contact', 'smtp send', 'webhook POST'].every((name) => otlp.spans().some((s) => s.name === name));
      },
      10_000,
      'the spans to arrive',
    );
    const spans = otlp.spans();
    const request = spans.find((s) => s.name === 'POST /api/contact')!;
    expect(request).toMatchObject({ traceId: TRACE, parentSpanId: PROXY_SPAN, spanId: stored.spanId });
    expect(stored.traceId).toBe(TRACE);
    expect(spans.find((s) => s.name === 'smtp send')).toMatchObject({ traceId: TRACE, spanId: mail.spanId, parentSpanId: request.spanId });
    expect(spans.find((s) => s.name === 'webhook POST')).toMatchObject({ traceId: TRACE, spanId: delivery.spanId, parentSpanId: request.spanId });
  });
});
