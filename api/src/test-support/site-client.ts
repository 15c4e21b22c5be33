import { signWebhookBody } from '../incoming-webhook/incoming-webhook-service';

/** What a browser or caller of the public and admin APIs sends; one place so the process-level tests read alike. */
export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed body as JSON.parse gives it: tests read it field by field and compare with what a caller expects. */
  json: ReturnType<typeof JSON.parse>;
}

export const TEST_ORIGIN = 'https://site.test';

export async function call(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; rawBody?: string; cookie?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      origin: TEST_ORIGIN,
      ...(init.body !== undefined || init.rawBody !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...init.headers,
    },
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await res.text();
  let json: Answer['json'];
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, json };
}

export const cookieOf = (headers: Headers) => headers.get('set-cookie')?.split(';')[0] ?? '';

/** A contact form message that passes the contract; `n` makes it unique. */
export const contactMessage = (n: number | string) => ({
  name: `Visitor ${n}`,
  email: `visitor${n}@example.com`,
  subject: `Question ${n}`,
  message: `Message number ${n}: we would like to automate our appointment reminders.`,
});

/** A webhook post body (published) that passes the contract; `n` makes its title unique. */
export const webhookPost = (n: number | string) => ({
  title: `Automation note ${n}`,
  excerpt: `Notes from the field, entry ${n}, about small automations that save time.`,
  content: `<h2>Entry ${n}</h2><p>${'Small automations give a team back hours every single week. '.repeat(3)}</p>`,
  author: 'Tri-Valley AI Team',
  category: 'AI Automation',
  metaDescription: `Entry ${n}: small automations that give a busy local team back hours every week.`,
  status: 'published',
});

/** POSTs a signed webhook delivery, as n8n would. */
export function sendWebhook(baseUrl: string, secret: string, body: unknown, idempotencyKey?: string): Promise<Answer> {
  const rawBody = JSON.stringify(body);
  return call(baseUrl, '/api/webhook', {
    method: 'POST',
    rawBody,
    headers: {
      'x-webhook-signature': signWebhookBody(secret, rawBody, Math.floor(Date.now() / 1000)),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
  });
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
