import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../support/test';
import { adminLogin, adminSend } from '../support/admin-api';
import { BASE_URL } from '../support/env';
import { watchPageErrors } from '../support/page-errors';

/*
 * Outgoing webhooks (issue 24) from a real browser to where they land: the owner adds an endpoint on the Integrations
 * screen (a receiver of this test on 127.0.0.1), keeps the secret shown once, sends a test event, and a visitor's
 * contact message reaches the receiver as `lead.created`, signed with that secret; the delivery log says so.
 */

type Received = { headers: IncomingHttpHeaders; body: string };
const stamp = Date.now();

/** Checks `t=<unix>,v1=<hex>` as a receiving n8n would (the snippet on the Integrations screen). */
function signatureValid(header: string | undefined, body: string, secret: string): boolean {
  const t = /(?:^|,)t=(\d+)/.exec(header ?? '')?.[1];
  const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(header ?? '')?.[1];
  if (!t || !v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(Buffer.from(v1, 'hex'), expected) && Math.abs(Date.now() / 1000 - Number(t)) < 300;
}

test('an endpoint added on the Integrations screen gets a signed test event and a lead.created, and the log shows them', async ({ page }) => {
  test.setTimeout(60_000);
  const errors = watchPageErrors(page);
  const received: Received[] = [];
  const receiver: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/n8n-hook-${stamp}`;
  let endpointId: string | undefined;
  try {
    await adminLogin(page.request);
    await page.goto('/admin/integrations');
    await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible();
    await page.getByRole('button', { name: 'Add endpoint' }).first().click();
    await page.getByLabel(/^Endpoint URL/).fill(url);
    await page.getByLabel(/^Description/).fill('n8n: new leads to the CRM');
    await page.getByRole('checkbox', { name: /lead\.created/ }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).last().click();

    // The secret, once.
    const secretBlock = page.getByRole('figure').filter({ hasText: 'Signing secret' });
    await expect(page.getByText('Copy the signing secret now: it is not shown again.')).toBeVisible();
    const secret = (await secretBlock.locator('code').textContent())!.trim();
    expect(secret.length).toBeGreaterThanOrEqual(20);
    const card = page.getByRole('article').filter({ hasText: url });
    await expect(card).toBeVisible();
    const listed = await page.request.get('/api/admin/webhooks');
    expect(await listed.text()).not.toContain(secret);
    endpointId = ((await listed.json()) as { endpoints: Array<{ id: string; url: string }> }).endpoints.find((e) => e.url === url)?.id;

    // Send test event: delivered to the receiver, signed.
    await card.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByText('Test event delivered')).toBeVisible();
    const test = received.at(-1)!;
    expect(signatureValid(test.headers['x-webhook-signature'] as string, test.body, secret)).toBe(true);

    // A visitor's contact message: lead.created within 5 s, signed, with the event's id.
    const email = `integrations.${stamp}@example.com`;
    const contact = await page.request.post('/api/contact', {
      headers: { origin: BASE_URL },
      data: { name: 'Morgan Lee', email, company: 'Lee Plumbing', subject: 'Dispatch automation', message: 'Can new jobs reach our technicians automatically?' },
    });
    expect(contact.status(), await contact.text()).toBe(200);
    const sentAt = Date.now();
    await expect.poll(() => received.some((r) => r.body.includes(email)), { timeout: 5_000, intervals: [100] }).toBe(true);
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    const lead = received.find((r) => r.body.includes(email))!;
    expect(lead.headers['x-webhook-event']).toBe('lead.created');
    expect(lead.headers['x-webhook-id']).toBeTruthy();
    expect(signatureValid(lead.headers['x-webhook-signature'] as string, lead.body, secret)).toBe(true);
    expect(JSON.parse(lead.body)).toMatchObject({ type: 'lead.created' });

    // Where the owner reads it.
    await page.reload();
    await card.getByText('Delivery log').click();
    await expect(card.getByText('lead.created').first()).toBeVisible();
    await expect(card.getByText('Delivered').first()).toBeVisible();
    errors.expectClean();
  } finally {
    // Other spec files send contact messages too: this endpoint goes before the receiver does.
    if (endpointId) await adminSend(page.request, 'DELETE', `/api/admin/webhooks/${endpointId}`);
    await new Promise((resolve) => receiver.close(resolve));
  }
});
