import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { server } from '../../../../../vitest.msw';
import { ContactForm } from '../components/contact-form';

/*
 * Issue 50: each submission carries an Idempotency-Key, kept when the same submission is sent again (the form's one
 * automatic retry after a network error, or the visitor's Send after an error), new for new content or after a send.
 */

const CONNECTION = 'Failed to send message. Please check your connection and try again.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Sent {
  key: string | null;
  body: { message?: string };
}

/** Answers POST /api/contact with `answers` in turn (the last one repeats) and records each request's key and body. */
function contactApi(...answers: Array<() => Response>) {
  const sent: Sent[] = [];
  server.use(
    http.post('/api/contact', async ({ request }) => {
      sent.push({ key: request.headers.get('Idempotency-Key'), body: (await request.json()) as Sent['body'] });
      return answers[Math.min(sent.length, answers.length) - 1]!();
    }),
  );
  return sent;
}

const ok = (message: string) => () => HttpResponse.json({ success: true, message });

function setup() {
  const user = userEvent.setup();
  render(
    <>
      <ContactForm />
      <Toaster theme="light" />
    </>,
  );
  return user;
}

async function fill(user: ReturnType<typeof userEvent.setup>, message = 'We miss phone orders every Friday night.') {
  await user.type(screen.getByLabelText('Name'), 'Jordan Lee');
  await user.type(screen.getByLabelText('Email'), 'jordan@diablobistro.com');
  await user.type(screen.getByLabelText('Message'), message);
}

const send = (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: 'Send Message' }));

describe('ContactForm: one Idempotency-Key per submission', () => {
  beforeEach(() => {
    window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as unknown as typeof window.matchMedia;
    Object.defineProperty(navigator, 'sendBeacon', { value: () => true, configurable: true });
  });

  it('sends the submission with a UUID as its Idempotency-Key', async () => {
    const sent = contactApi(ok('Got it.'));
    const user = setup();
    await fill(user);
    await send(user);
    await screen.findByText('Got it.');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.key).toMatch(UUID);
  });

  it('sends again once, with the same key, when the request fails on the way, and shows the success', async () => {
    const sent = contactApi(() => HttpResponse.error(), ok("Thanks, Jordan! We'll reply soon."));
    const user = setup();
    await fill(user);
    await send(user);
    expect(await screen.findByText("Thanks, Jordan! We'll reply soon.")).toBeTruthy();
    expect(screen.queryByText(CONNECTION)).toBeNull();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.key).toBe(sent[0]!.key);
    expect(sent[1]!.body).toEqual(sent[0]!.body);
  });

  it('tries twice at most, then shows the connection message; Send again keeps the key', async () => {
    const sent = contactApi(
      () => HttpResponse.error(),
      () => HttpResponse.error(),
      ok('Arrived at last.'),
    );
    const user = setup();
    await fill(user);
    await send(user);
    expect(await screen.findByText(CONNECTION)).toBeTruthy();
    expect(sent).toHaveLength(2);
    await send(user);
    await screen.findByText('Arrived at last.');
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);
  });

  it('does not send an answered request again by itself, and keeps the key for Send after a refusal', async () => {
    const sent = contactApi(() => HttpResponse.json({ success: false, message: 'Mail is down, try later' }, { status: 500 }), ok('Sent now.'));
    const user = setup();
    await fill(user);
    await send(user);
    await screen.findByText('Mail is down, try later');
    expect(sent).toHaveLength(1);
    await send(user);
    await screen.findByText('Sent now.');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.key).toBe(sent[0]!.key);
  });

  it('takes a new key for changed content, and for the next submission after a send', async () => {
    const sent = contactApi(() => HttpResponse.json({ success: false, message: 'Mail is down, try later' }, { status: 500 }), ok('First sent.'), ok('Second sent.'));
    const user = setup();
    await fill(user);
    await send(user);
    await screen.findByText('Mail is down, try later');
    await user.type(screen.getByLabelText('Message'), ' Also on Saturdays.');
    await send(user);
    await screen.findByText('First sent.');
    // The form is empty again: the next message is a submission of its own.
    await fill(user, 'And one more question about invoices.');
    await send(user);
    await screen.findByText('Second sent.');
    expect(sent.map((s) => s.body.message)).toEqual([
      'We miss phone orders every Friday night.',
      'We miss phone orders every Friday night. Also on Saturdays.',
      'And one more question about invoices.',
    ]);
    expect(sent.every((s) => UUID.test(s.key ?? ''))).toBe(true);
    expect(new Set(sent.map((s) => s.key)).size).toBe(3);
  });

  it('takes a new key for the same words sent again after they arrived: the visitor means a second message', async () => {
    const sent = contactApi(ok('Sent.'));
    const user = setup();
    await fill(user);
    await send(user);
    await screen.findByText('Sent.');
    await fill(user);
    await send(user);
    await screen.findAllByText('Sent.');
    expect(sent).toHaveLength(2);
    expect(sent[1]!.body).toEqual(sent[0]!.body);
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
  });
});
