import { createClient } from '@libsql/client';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../support/env';

/** Reads the production server's SQLite file directly, with the API's own driver. */
async function storedMessages(email: string) {
  const client = createClient({ url: `file:${path.join(E2E_DATA_DIR, 'site.db')}` });
  try {
    const result = await client.execute({ sql: 'select name, email, company, subject, message, user_agent, ip_hash from contact_messages where email = ?', args: [email] });
    return result.rows;
  } finally {
    client.close();
  }
}

async function fill(page: Page, email: string) {
  const form = page.getByRole('form', { name: 'Contact form' });
  await form.getByLabel('Name').fill('Maria Gonzales');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Company (optional)').fill('Casa Maria, Danville');
  await form.getByLabel('Subject (optional)').fill('Phone orders on weekends');
  await form.getByLabel('Message').fill('We lose orders when the phone rings during the Friday rush. Could a bot take them?');
  return form;
}

test.describe('contact form', () => {
  test('sends, shows the success toast, clears the form, and the message is stored', async ({ page }) => {
    const email = `maria+${Date.now()}@casamaria.test`;
    await page.goto('/#contact');
    const form = await fill(page, email);
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Message Sent!')).toBeVisible();
    await expect(page.getByText(/Thanks, Maria! Your message has arrived/)).toBeVisible();
    await expect(form.getByLabel('Name')).toHaveValue('');
    await expect(form.getByLabel('Message')).toHaveValue('');
    const rows = await storedMessages(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Maria Gonzales', company: 'Casa Maria, Danville', subject: 'Phone orders on weekends' });
    expect(String(rows[0]!.user_agent)).toContain('Chrome');
    expect(String(rows[0]!.ip_hash)).toMatch(/^[0-9a-f]{64}$/);
  });

  test('shows the sending toast and sends once on a double click', async ({ page }) => {
    let posts = 0;
    await page.route('**/api/contact', async (route) => {
      posts += 1;
      await new Promise((r) => setTimeout(r, 800));
      await route.fulfill({ status: 200, json: { success: true, message: 'Received, thank you.' } });
    });
    await page.goto('/#contact');
    const form = await fill(page, 'double@click.test');
    await form.getByRole('button', { name: 'Send Message' }).dblclick();
    await expect(page.getByText('Sending message...')).toBeVisible();
    await expect(page.getByText('Please wait while we send your message.')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Sending…' })).toBeDisabled();
    await expect(page.getByText('Received, thank you.')).toBeVisible();
    expect(posts).toBe(1);
  });

  test('a server failure shows the Error toast with the default message and keeps the input', async ({ page }) => {
    await page.route('**/api/contact', (route) => route.fulfill({ status: 500, json: { success: false } }));
    await page.goto('/#contact');
    const form = await fill(page, 'server@failure.test');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Error', { exact: true })).toBeVisible();
    await expect(page.getByText('Failed to send message. Please try again.')).toBeVisible();
    await expect(form.getByLabel('Name')).toHaveValue('Maria Gonzales');
  });

  test("a refusal shows the server's own message", async ({ page }) => {
    await page.route('**/api/contact', (route) =>
      route.fulfill({ status: 429, headers: { 'Retry-After': '600' }, json: { success: false, message: 'Too many messages from your connection.' } }),
    );
    await page.goto('/#contact');
    const form = await fill(page, 'limited@failure.test');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Too many messages from your connection.')).toBeVisible();
  });

  test('a network failure shows the connection message', async ({ page }) => {
    await page.route('**/api/contact', (route) => route.abort('internetdisconnected'));
    await page.goto('/#contact');
    const form = await fill(page, 'network@failure.test');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Failed to send message. Please check your connection and try again.')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  test('the browser and the shared schema refuse a bad email before anything is sent', async ({ page }) => {
    let posts = 0;
    await page.route('**/api/contact', (route) => {
      posts += 1;
      return route.fulfill({ status: 200, json: { success: true } });
    });
    await page.goto('/#contact');
    const form = await fill(page, 'not-an-email');
    await form.getByRole('button', { name: 'Send Message' }).click();
    expect(await form.getByLabel('Email').evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
    // Past the browser's check (a@b passes it), the zod schema still refuses it visibly.
    await form.getByLabel('Email').fill('maria@casamaria');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(form.getByText('Enter a valid email address')).toBeVisible();
    expect(posts).toBe(0);
  });
});
