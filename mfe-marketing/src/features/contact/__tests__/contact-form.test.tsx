import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { server } from '../../../../../vitest.msw';
import { useContactDraft } from '../../../lib/contact-draft';
import { ContactForm } from '../components/contact-form';

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

async function fillRequired(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Name'), 'Jordan Lee');
  await user.type(screen.getByLabelText('Email'), 'jordan@diablobistro.com');
  await user.type(screen.getByLabelText('Message'), 'We miss phone orders every Friday night.');
}

/** Answers POST /api/contact with `answers` in turn (the last one repeats) and records what was sent. */
function contactApi(...answers: Array<() => Response | Promise<Response>>) {
  const sent: unknown[] = [];
  server.use(
    http.post('/api/contact', async ({ request }) => {
      sent.push(await request.json());
      return answers[Math.min(sent.length, answers.length) - 1]!();
    }),
  );
  return sent;
}

describe('ContactForm', () => {
  beforeEach(() => {
    window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as unknown as typeof window.matchMedia;
    // track() posts with sendBeacon; keep analytics out of the contact API's traffic.
    Object.defineProperty(navigator, 'sendBeacon', { value: () => true, configurable: true });
  });
  afterEach(() => {
    useContactDraft.setState({ draft: null });
  });

  it('shows the sending toast, then the success toast with the server message, and clears the form', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const sent = contactApi(async () => {
      await held;
      return HttpResponse.json({ success: true, message: "Thanks! We'll reply within one business day." });
    });
    const user = setup();
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Sending message...')).toBeTruthy();
    expect(screen.getByText('Please wait while we send your message.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Sending…' }) as HTMLButtonElement).disabled).toBe(true);
    release();
    expect(await screen.findByText('Message Sent!')).toBeTruthy();
    expect(screen.getByText("Thanks! We'll reply within one business day.")).toBeTruthy();
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ name: 'Jordan Lee', email: 'jordan@diablobistro.com' });
  });

  it('sends once on a double click', async () => {
    const sent = contactApi(() => HttpResponse.json({ success: true, message: 'Got it, once.' }));
    const user = setup();
    await fillRequired(user);
    await user.dblClick(screen.getByRole('button', { name: 'Send Message' }));
    await screen.findByText('Got it, once.');
    expect(sent).toHaveLength(1);
  });

  it('shows the server message on success: false, and the default when there is none', async () => {
    contactApi(
      () => HttpResponse.json({ success: false, message: 'Mail is down, try later' }, { status: 500 }),
      () => HttpResponse.json({ success: false }),
    );
    const user = setup();
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Mail is down, try later')).toBeTruthy();
    expect(screen.getByText('Error')).toBeTruthy();
    // The form keeps what the visitor typed.
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Jordan Lee');

    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Failed to send message. Please try again.')).toBeTruthy();
  });

  it("shows the message of the API's error envelope when the server refuses (e.g. rate limited)", async () => {
    contactApi(() =>
      HttpResponse.json(
        { error: { code: 'rate_limited', message: 'Too many messages from your connection. Please wait a few minutes.' } },
        { status: 429, headers: { 'Retry-After': '600' } },
      ),
    );
    const user = setup();
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Too many messages from your connection. Please wait a few minutes.')).toBeTruthy();
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('We miss phone orders every Friday night.');
  });

  it('shows the connection message on a network failure and on an unreadable answer', async () => {
    contactApi(
      // A failed request is sent again once by itself (contact-idempotency.test.tsx): both fail here.
      () => HttpResponse.error(),
      () => HttpResponse.error(),
      () => new HttpResponse('<html>Bad gateway</html>', { status: 200, headers: { 'Content-Type': 'text/html' } }),
    );
    const user = setup();
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Failed to send message. Please check your connection and try again.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() => expect(screen.getAllByText('Failed to send message. Please check your connection and try again.').length).toBe(2));
  });

  it('names invalid fields next to them and sends nothing', async () => {
    const sent = contactApi(() => HttpResponse.json({ success: true, message: 'Should not be sent' }));
    const user = setup();
    await user.type(screen.getByLabelText('Name'), '   ');
    await user.type(screen.getByLabelText('Email'), 'jordan@example.com');
    await user.type(screen.getByLabelText('Message'), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    expect(sent).toHaveLength(0);
  });

  it('asks for a little more detail when the message is under 10 characters', async () => {
    const sent = contactApi(() => HttpResponse.json({ success: true, message: 'Should not be sent' }));
    const user = setup();
    await user.type(screen.getByLabelText('Name'), 'Jordan');
    await user.type(screen.getByLabelText('Email'), 'jordan@example.com');
    await user.type(screen.getByLabelText('Message'), 'Call me');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    const error = await screen.findByText('Please add a little more detail (at least 10 characters)');
    expect(screen.getByLabelText('Message').getAttribute('aria-describedby')).toContain(error.id);
    expect(sent).toHaveLength(0);
  });

  it('says what is missing in its own words only: no bubble of the browser beside them (issue 54, item 7)', async () => {
    const sent = contactApi(() => HttpResponse.json({ success: true, message: 'Should not be sent' }));
    const user = setup();
    const form = screen.getByRole('form', { name: 'Contact form' }) as HTMLFormElement;
    // The browser's own check never runs on submit (no bubble), yet the fields still say what they are.
    expect(form.noValidate).toBe(true);
    expect(screen.getByLabelText('Email').getAttribute('type')).toBe('email');
    expect((screen.getByLabelText('Name') as HTMLInputElement).required).toBe(true);
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(screen.getByText('Enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Message is required')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Name'));
    expect(sent).toEqual([]);
  });

  it('takes a prefill from the contact draft store', async () => {
    setup();
    act(() => useContactDraft.getState().prefill({ subject: 'Claim DANVILLE20', message: 'Please apply my discount' }));
    await waitFor(() => expect((screen.getByLabelText('Subject (optional)') as HTMLInputElement).value).toBe('Claim DANVILLE20'));
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Please apply my discount');
  });

  it('takes a prefill requested before the form was shown', () => {
    act(() => useContactDraft.getState().prefill({ subject: 'Claim DANVILLE20', message: 'Please apply my discount' }));
    setup();
    expect((screen.getByLabelText('Subject (optional)') as HTMLInputElement).value).toBe('Claim DANVILLE20');
  });

  it('moves focus to the first field the send check stops', async () => {
    const sent = contactApi(() => HttpResponse.json({ success: true }));
    const user = setup();
    await user.type(screen.getByLabelText('Name'), 'Jordan Lee');
    await user.type(screen.getByLabelText('Email'), 'jordan@diablobistro.com');
    await user.type(screen.getByLabelText('Message'), 'Too short');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Message'));
    expect(sent).toEqual([]);
  });

  it('records focus and blur of a field once per page view, and survives a broken analytics transport', async () => {
    const beacon = vi.fn(() => {
      throw new Error('blocked by an extension');
    });
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    server.use(http.post('/api/events', () => HttpResponse.error()));
    const user = setup();
    const name = screen.getByLabelText('Name');
    await user.click(name);
    await user.click(screen.getByLabelText('Email'));
    await user.click(name);
    await user.click(screen.getByLabelText('Email'));
    await user.type(name, 'still typing');
    expect((name as HTMLInputElement).value).toBe('still typing');
    // Sent after the next paint, the events of one moment in one beacon: every beacon's events, counted.
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 10)));
    const bodies = await Promise.all((beacon.mock.calls as unknown as Array<[string, Blob]>).map(async ([, blob]) => JSON.parse(await blob.text())));
    const events = bodies.flatMap((body: { events?: unknown[] }) => body.events ?? [body]);
    // name focus, name blur, email focus, email blur (+ second email blur when typing in name is deduplicated)
    expect(events).toHaveLength(4);
  });
});
