import { execFileSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { screen, within } from '@testing-library/react';
import { SITE_ORIGIN_ATTRIBUTE } from '@site/contracts/site';
import { afterEach, describe, expect, it } from 'vitest';
import { renderAdmin, servePostList, serveSession, WEBHOOK_EXAMPLE } from './admin-test-kit';

/*
 * Issue 54, item 9: the recipes on the posts page work when copied. The curl example, run in bash as copied (with a
 * stand-in `curl` that prints what it would send), gives each post its own Idempotency-Key and the same post the same
 * key, signed as the server checks; the first n8n recipe is the free edition's (built-in nodes, no $vars, no code).
 */

/** The text of the copy block named `label`. */
async function block(docs: HTMLElement, label: string): Promise<string> {
  const caption = await within(docs).findByText(label, { selector: 'figcaption' });
  return caption.closest('figure')!.querySelector('pre')!.textContent!;
}

/** Runs the recipe with `BODY` set to `body`; answers the headers the recipe's curl call would send. */
function runCurlRecipe(recipe: string, body: string): Record<string, string> {
  const script = `curl() { printf '%s\\n' "$@"; }\n${recipe.replace(/^SECRET=.*$/m, "SECRET='s3cret'").replace(/^BODY='.*'$/m, () => `BODY='${body}'`)}`;
  const args = execFileSync('bash', ['-c', script], { encoding: 'utf8' }).split('\n');
  const headers: Record<string, string> = {};
  args.forEach((arg, i) => {
    if (args[i - 1] !== '-H') return;
    const colon = arg.indexOf(': ');
    headers[arg.slice(0, colon)] = arg.slice(colon + 2);
  });
  expect(args.at(-2), 'the body is sent as it is signed').toBe(body);
  return headers;
}

describe('Webhook recipes on the posts page', { timeout: 45_000 }, () => {
  it('the curl example gives each post its own Idempotency-Key (the same again for a retry), never a date', async () => {
    serveSession();
    servePostList([]);
    renderAdmin('/admin/posts');
    // The posts screen is a lazy part, transformed on first import: slow on a busy machine.
    const docs = await screen.findByRole('region', { name: 'Publishing from n8n (webhook)' }, { timeout: 30_000 });
    const curl = await block(docs, 'curl example (bash)');
    expect(curl).not.toMatch(/date \+%[YmdF]/);

    const first = JSON.stringify({ ...WEBHOOK_EXAMPLE, status: 'draft' });
    const second = JSON.stringify({ ...WEBHOOK_EXAMPLE, title: 'A second post the same day', status: 'draft' });
    const one = runCurlRecipe(curl, first);
    const two = runCurlRecipe(curl, second);
    const retry = runCurlRecipe(curl, first);
    expect(one['Idempotency-Key']).toMatch(/^[0-9a-f]{64}$/);
    expect(two['Idempotency-Key']).not.toBe(one['Idempotency-Key']);
    expect(retry['Idempotency-Key']).toBe(one['Idempotency-Key']);
    expect(one['Idempotency-Key']).toBe(createHash('sha256').update(first).digest('hex'));
    // Signed as the API checks it: HMAC-SHA256 of "<t>.<body>" with the secret.
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(two['X-Webhook-Signature']!)!;
    expect(v1).toBe(createHmac('sha256', 's3cret').update(`${t}.${second}`).digest('hex'));
  });

  it('shows the free edition’s n8n nodes first (no $vars, no code), then the Code node as the alternative', async () => {
    serveSession();
    servePostList([]);
    renderAdmin('/admin/posts');
    const docs = await screen.findByRole('region', { name: 'Publishing from n8n (webhook)' });
    const captions = within(docs)
      .getAllByText(/n8n/, { selector: 'figcaption' })
      .map((c) => c.textContent);
    expect(captions).toEqual(['n8n nodes (any plan)', 'n8n Code node (alternative)']);
    const nodes = await block(docs, 'n8n nodes (any plan)');
    expect(nodes).toContain('Crypto › Action: Hmac · Type: SHA256 · Encoding: HEX');
    expect(nodes).not.toMatch(/\$vars|require\(|NODE_FUNCTION_ALLOW_BUILTIN|\$execution/);
    expect(nodes).toContain("Idempotency-Key: {{ $json.body.hash('sha256') }}");
    const code = await block(docs, 'n8n Code node (alternative)');
    expect(code).toContain('Mode: Run Once for Each Item');
    expect(docs.textContent).toContain('n8n variables, paid plans only');
  });

  afterEach(() => document.documentElement.removeAttribute(SITE_ORIGIN_ATTRIBUTE));

  it('names the site’s public address, not the one the admin was opened at', async () => {
    // The server writes PUBLIC_ORIGIN on every page; the admin here is opened at jsdom's own address.
    document.documentElement.setAttribute(SITE_ORIGIN_ATTRIBUTE, 'https://trivalley.example');
    expect(window.location.origin).not.toBe('https://trivalley.example');
    serveSession();
    servePostList([]);
    renderAdmin('/admin/posts');
    const docs = await screen.findByRole('region', { name: 'Publishing from n8n (webhook)' });
    const curl = await block(docs, 'curl example (bash)');
    expect(curl).toContain('https://trivalley.example/api/webhook');
    expect(curl).not.toContain(window.location.origin);
    expect(within(docs).getAllByText('https://trivalley.example/api/webhook').length).toBeGreaterThan(0);
  });
});
