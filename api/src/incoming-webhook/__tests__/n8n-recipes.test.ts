import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookResultSchema } from '@site/contracts/posts';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/*
 * The two n8n recipes of docs/integrations.md, read from that guide and run as n8n runs them: the free edition's
 * (Edit Fields, the built-in Crypto node, HTTP Request: the `{{ }}` expressions evaluated in order) and the Code
 * node's (its JavaScript run with n8n's `$json`, `$vars` and `$execution`). What each sends is sent to the server,
 * which must take it.
 */

const GUIDE = path.resolve(import.meta.dirname, '../../../../docs/integrations.md');
const SECRET = 'the-owners-webhook-secret';
/** What the workflow's earlier nodes hand over (an AI step's article, say). */
const INPUT = {
  title: 'Three automations for a busy dental office',
  excerpt: 'Reminders, recalls and reviews: the three that pay back first.',
  html: `<h2>Start with reminders</h2><p>${'Automated reminders cut no-shows and free the front desk. '.repeat(4)}</p>`,
  metaDescription: 'Three simple automations that save a busy dental office hours every single week.',
  keywords: ['dental', 'automation'],
};

/** The fenced block right after `<!-- marker -->` in the guide. */
async function recipe(marker: string): Promise<string> {
  const text = await readFile(GUIDE, 'utf8');
  const match = new RegExp(`<!-- ${marker} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``).exec(text);
  if (!match) throw new Error(`docs/integrations.md has no block after <!-- ${marker} -->`);
  return match[1]!;
}

/** An n8n expression field: every `{{ … }}` is JavaScript over the node's input. */
function evaluate(template: string, scope: Record<string, unknown>): string {
  let out = '';
  let rest = template;
  for (let open = rest.indexOf('{{'); open >= 0; open = rest.indexOf('{{')) {
    const close = rest.indexOf('}}', open + 2);
    if (close < 0) throw new Error(`an expression without its end: ${template}`);
    const run = new Function(...Object.keys(scope), `return (${rest.slice(open + 2, close)});`) as (...values: unknown[]) => unknown;
    out += rest.slice(0, open) + String(run(...Object.values(scope)));
    rest = rest.slice(close + 2);
  }
  return out + rest;
}

describe("the integration guide's n8n recipes, as n8n runs them", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { WEBHOOK_SECRET: SECRET, PUBLIC_ORIGIN: 'https://example.test' } });
  });
  afterAll(() => server.close());

  async function deliver(body: string, signature: string, key: string, title: string) {
    const res = await fetch(`${server.url}/api/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signature, 'idempotency-key': key },
      body,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const result = webhookResultSchema.parse(await res.json());
    expect((await server.instance.services.posts.getById(result.id)).title).toBe(title);
  }

  it("the free edition's nodes (Edit Fields, Crypto, HTTP Request) send a delivery the server takes", async () => {
    const lines = (await recipe('n8n-crypto-recipe')).split('\n');
    const field = (node: string, name: string) => {
      const line = lines.find((l) => l.startsWith(`${node} › ${name}`));
      if (!line) throw new Error(`the recipe has no "${node} › ${name}" line`);
      return line.slice(line.indexOf(':', `${node} › ${name}`.length) + 1).trim();
    };
    const input = { ...INPUT, title: `${INPUT.title} (Crypto node)` };
    // Edit Fields: t, a number, and body, the one string that is signed and sent.
    const set = { t: Number(evaluate(field('Edit Fields (Set)', 't (Number)'), { $json: input })), body: evaluate(field('Edit Fields (Set)', 'body (String)'), { $json: input }) };
    expect(Number.isInteger(set.t)).toBe(true);
    // Crypto: its settings as the node offers them.
    const settings = Object.fromEntries(
      field('Crypto', 'Action')
        .split(' · ')
        .map((part, i) => (i === 0 ? ['Action', part] : part.split(/: (.*)/s).slice(0, 2))),
    ) as Record<string, string>;
    expect(settings).toMatchObject({ Action: 'Hmac', Type: 'SHA256', Encoding: 'HEX', 'Property Name': 'v1' });
    const crypto = { ...set, [settings['Property Name']!]: createHmac('sha256', SECRET).update(evaluate(settings.Value!, { $json: set })).digest('hex') };
    expect(field('Crypto', 'Secret')).toContain('WEBHOOK_SECRET');
    // HTTP Request.
    const scope = { $json: crypto, $execution: { id: 'n8n-execution-1' } };
    await deliver(
      evaluate(field('HTTP Request', 'Body (Raw, application/json)'), scope),
      evaluate(field('HTTP Request', 'X-Webhook-Signature'), scope),
      evaluate(field('HTTP Request', 'Idempotency-Key'), scope),
      input.title,
    );
  });

  it("the Code node's JavaScript sends a delivery the server takes", async () => {
    const code = await recipe('n8n-code-recipe');
    const input = { ...INPUT, title: `${INPUT.title} (Code node)` };
    const run = new Function('require', '$json', '$vars', '$execution', code) as (...args: unknown[]) => Array<{ json: { body: string; signature: string; key: string } }>;
    const [item] = run(createRequire(import.meta.url), input, { WEBHOOK_SECRET: SECRET }, { id: 'n8n-execution-2' });
    await deliver(item!.json.body, item!.json.signature, item!.json.key, input.title);
  });
});
