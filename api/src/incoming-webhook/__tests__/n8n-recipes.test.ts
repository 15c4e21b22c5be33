import { execFile } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookResultSchema, type WebhookResult } from '@site/contracts/posts';
import { N8N_CODE_RECIPE, N8N_NODES_RECIPE, WEBHOOK_SECRET_PLACEHOLDER, webhookCurlRecipe } from '@site/contracts/webhook-recipes';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/*
 * The recipes of docs/integrations.md, read from that guide and run as a reader runs them, each for two different
 * posts the same day and once more as a retry of the first: the curl recipe in bash (curl and openssl, as copied), the
 * free edition's n8n nodes (Edit Fields, the built-in Crypto node, HTTP Request: the `{{ }}` expressions evaluated in
 * order) and the Code node's JavaScript (run with n8n's `$json`, `$vars` and `require`). Both posts must be created
 * and the retry must answer the first; the guide's blocks must be the ones the admin panel shows (webhook-recipes.ts).
 */

const GUIDE = path.resolve(import.meta.dirname, '../../../../docs/integrations.md');
const GUIDE_ENDPOINT = 'https://your-site.example/api/webhook';
const SECRET = 'the-owners-webhook-secret';
const run = promisify(execFile);
/** What the workflow's earlier nodes hand over (an AI step's article, say). */
const INPUT = {
  title: 'Three automations for a busy dental office',
  excerpt: 'Reminders, recalls and reviews: the three that pay back first.',
  html: `<h2>Start with reminders</h2><p>${'Automated reminders cut no-shows and free the front desk. '.repeat(4)}</p>`,
  metaDescription: 'Three simple automations that save a busy dental office hours every single week.',
  keywords: ['dental', 'automation'],
};
const SECOND = { ...INPUT, title: 'Rebooking on autopilot for a busy dental office', html: `<p>${'Recalls that book themselves. '.repeat(6)}</p>` };

/** The fenced block right after `<!-- marker -->` in the guide. */
async function recipe(marker: string): Promise<string> {
  const text = await readFile(GUIDE, 'utf8');
  const match = new RegExp(`<!-- ${marker} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``).exec(text);
  if (!match) throw new Error(`docs/integrations.md has no block after <!-- ${marker} -->`);
  return match[1]!;
}

/** n8n's string function the recipe uses, `.hash(algorithm)` (hex of the UTF-8 text), present while `fn` runs. */
function withN8nStringFunctions<T>(fn: () => T): T {
  Object.defineProperty(String.prototype, 'hash', {
    configurable: true,
    value(this: string, algorithm = 'md5') {
      return createHash(algorithm.toLowerCase()).update(String(this)).digest('hex');
    },
  });
  try {
    return fn();
  } finally {
    delete (String.prototype as { hash?: unknown }).hash;
  }
}

/** An n8n expression field: every `{{ … }}` is JavaScript over the node's input. */
function evaluate(template: string, scope: Record<string, unknown>): string {
  let out = '';
  let rest = template;
  for (let open = rest.indexOf('{{'); open >= 0; open = rest.indexOf('{{')) {
    const close = rest.indexOf('}}', open + 2);
    if (close < 0) throw new Error(`an expression without its end: ${template}`);
    const fn = new Function(...Object.keys(scope), `return (${rest.slice(open + 2, close)});`) as (...values: unknown[]) => unknown;
    out += rest.slice(0, open) + String(withN8nStringFunctions(() => fn(...Object.values(scope))));
    rest = rest.slice(close + 2);
  }
  return out + rest;
}

describe("the integration guide's recipes, run as copied: two posts the same day, and a retry", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { WEBHOOK_SECRET: SECRET, PUBLIC_ORIGIN: 'https://example.test' } });
  });
  afterAll(() => server.close());

  async function deliver(body: string, signature: string, key: string) {
    return fetch(`${server.url}/api/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signature, 'idempotency-key': key },
      body,
    });
  }

  /** The answer is a created post (or the first answer again) with this title. */
  async function created(answer: string, title: string): Promise<WebhookResult> {
    const result = webhookResultSchema.safeParse(JSON.parse(answer));
    expect(result.success, answer).toBe(true);
    expect((await server.instance.services.posts.getById(result.data!.id)).title).toBe(title);
    return result.data!;
  }

  it('the curl recipe (the one the admin panel shows) creates both posts, and run again for the first answers it', async () => {
    const guide = await recipe('webhook-curl-recipe');
    const body = /^BODY='(.*)'$/m.exec(guide)?.[1];
    expect(body, 'the recipe sets BODY').toBeTruthy();
    // The admin panel's recipe is the same text for its own address and example body.
    expect(guide).toBe(webhookCurlRecipe(GUIDE_ENDPOINT, body!));
    // As a reader runs it: their secret and site, then the same lines with the next post's body.
    const script = (postBody: string) =>
      guide
        .replace(`SECRET='${WEBHOOK_SECRET_PLACEHOLDER}'`, `SECRET='${SECRET}'`)
        .replace(`'${GUIDE_ENDPOINT}'`, `'${server.url}/api/webhook'`)
        .replace(/^BODY='.*'$/m, () => `BODY='${postBody}'`);
    const sh = async (postBody: string) => (await run('bash', ['-c', script(postBody)], { timeout: 15_000 })).stdout;
    const first = JSON.parse(body!) as { title: string };
    const next = { ...first, title: `${first.title}: part two`, content: `<p>${'The second post of the day, with a body of its own. '.repeat(3)}</p>` };

    const one = await created(await sh(body!), first.title);
    const two = await created(await sh(JSON.stringify(next)), next.title);
    expect(two.id).not.toBe(one.id);
    // A retry of the first post (the recipe run again, a new signature): its first answer, no third post.
    expect((await created(await sh(body!), first.title)).id).toBe(one.id);
  });

  it("the free edition's nodes (Edit Fields, Crypto, HTTP Request) come first, without $vars or code, and send both posts", async () => {
    const text = await readFile(GUIDE, 'utf8');
    expect(text.indexOf('<!-- n8n-crypto-recipe -->')).toBeLessThan(text.indexOf('<!-- n8n-code-recipe -->'));
    const nodes = await recipe('n8n-crypto-recipe');
    expect(nodes).toBe(N8N_NODES_RECIPE);
    expect(nodes).not.toMatch(/\$vars|\$env|require\(|\$execution/);
    const lines = nodes.split('\n');
    const field = (node: string, name: string) => {
      const line = lines.find((l) => l.startsWith(`${node} › ${name}`));
      if (!line) throw new Error(`the recipe has no "${node} › ${name}" line`);
      return line.slice(line.indexOf(':', `${node} › ${name}`.length) + 1).trim();
    };
    // Crypto: its settings as the node offers them; the secret in a credential, not in an expression.
    const settings = Object.fromEntries(
      field('Crypto', 'Action')
        .split(' · ')
        .map((part, i) => (i === 0 ? ['Action', part] : part.split(/: (.*)/s).slice(0, 2))),
    ) as Record<string, string>;
    expect(settings).toMatchObject({ Action: 'Hmac', Type: 'SHA256', Encoding: 'HEX', 'Property Name': 'v1' });
    expect(field('Crypto', 'Credential')).toContain('Hmac Secret');

    /** One item through the three nodes: what the HTTP Request node sends. */
    const workflow = (input: typeof INPUT) => {
      const set = { t: Number(evaluate(field('Edit Fields (Set)', 't (Number)'), { $json: input })), body: evaluate(field('Edit Fields (Set)', 'body (String)'), { $json: input }) };
      expect(Number.isInteger(set.t)).toBe(true);
      const signed = { ...set, [settings['Property Name']!]: createHmac('sha256', SECRET).update(evaluate(settings.Value!, { $json: set })).digest('hex') };
      const scope = { $json: signed };
      return [
        evaluate(field('HTTP Request', 'Body (Raw, application/json)'), scope),
        evaluate(field('HTTP Request', 'X-Webhook-Signature'), scope),
        evaluate(field('HTTP Request', 'Idempotency-Key'), scope),
      ] as const;
    };
    // Two articles in one execution: two items, two posts.
    const first = workflow({ ...INPUT, title: `${INPUT.title} (Crypto node)` });
    const second = workflow({ ...SECOND, title: `${SECOND.title} (Crypto node)` });
    const one = await deliver(...first);
    expect(one.status, await one.clone().text()).toBe(201);
    const two = await deliver(...second);
    expect(two.status, await two.clone().text()).toBe(201);
    const ids = [(await created(await one.text(), `${INPUT.title} (Crypto node)`)).id, (await created(await two.text(), `${SECOND.title} (Crypto node)`)).id];
    expect(ids[1]).not.toBe(ids[0]);
    // "Retry On Fail" sends the first item again: its first answer.
    const again = await deliver(...first);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await created(await again.text(), `${INPUT.title} (Crypto node)`)).id).toBe(ids[0]);
  });

  it("the Code node's JavaScript (Run Once for Each Item: one object back) sends both posts", async () => {
    const code = await recipe('n8n-code-recipe');
    expect(code).toBe(N8N_CODE_RECIPE);
    expect(code).toContain('Run Once for Each Item');
    const node = new Function('require', '$json', '$vars', code) as (...args: unknown[]) => { json: { body: string; signature: string; key: string } };
    const send = async (input: typeof INPUT) => {
      const item = node(createRequire(import.meta.url), input, { WEBHOOK_SECRET: SECRET });
      // n8n refuses an array from this mode ("Code doesn't return a single object").
      expect(Array.isArray(item)).toBe(false);
      const res = await deliver(item.json.body, item.json.signature, item.json.key);
      expect(res.status, await res.clone().text()).toBe(201);
      return created(await res.text(), input.title);
    };
    const one = await send({ ...INPUT, title: `${INPUT.title} (Code node)` });
    const two = await send({ ...SECOND, title: `${SECOND.title} (Code node)` });
    expect(two.id).not.toBe(one.id);
  });
});
