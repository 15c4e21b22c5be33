import { useId, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { CONTACT_EMAIL_INVALID, CONTACT_LIMITS, type ContactField } from '@site/contracts/contact-limits';
import { Button, cn, notify, track } from '@site/ui';
import { useContactDraft, type ContactDraft } from '../../../lib/contact-draft';
import { formatCount } from '../../../lib/format';
import { useFieldTracking } from '../hooks/use-field-tracking';
import { contactSubmitNow, loadContactSubmit } from '../lib/load-contact-submit';

type Values = Record<ContactField, string>;
/** Sends so far on this page: each send's toast has its own id, also across remounts of the form. */
let sends = 0;
const EMPTY: Values = { name: '', email: '', company: '', subject: '', message: '' };
const FIELD_ORDER: ContactField[] = ['name', 'email', 'company', 'subject', 'message'];
const withDraft = (v: Values, draft: ContactDraft | null): Values =>
  draft ? { ...v, subject: draft.subject ?? v.subject, message: draft.message ?? v.message } : v;

export const CONTACT_TOASTS = {
  sending: 'Sending message...',
  sendingDescription: 'Please wait while we send your message.',
  sent: 'Message Sent!',
  sentFallback: "Thanks for reaching out. We'll get back to you within one business day.",
  error: 'Error',
  rejected: 'Failed to send message. Please try again.',
  network: 'Failed to send message. Please check your connection and try again.',
} as const;

/**
 * Room above a field scrolled to, on top of the page's scroll padding for the sticky header (packages/ui/src/theme.css):
 * the field's label, not only its box, shows below the header.
 */
const FIELD_SCROLL_MARGIN = 'scroll-mt-6';

/**
 * Moves focus to a field the send check stopped, its label in view below the sticky header: the field (label,
 * control, message) is scrolled into view as a whole when it is not, then its control is focused where it is.
 */
function focusField(form: HTMLFormElement, name: ContactField) {
  const control = form.elements.namedItem(name) as HTMLElement | null;
  control?.closest<HTMLElement>('[data-field]')?.scrollIntoView?.({ block: 'nearest' });
  control?.focus({ preventScroll: true });
}

const inputClasses =
  'mt-1.5 block w-full rounded-lg border bg-surface px-3.5 py-2.5 text-fg shadow-sm placeholder:text-muted-fg/70 focus:border-primary focus:outline-none focus:ring-2 focus:ring-ring/40';

/**
 * The contact form (spec sections 3, 4, 5 and 8): validated like the API, one send per click, toasts for every outcome.
 * Its validation and send code load on the first focus or pointer over the form (loadContactSubmit), not with the page.
 */
export function ContactForm() {
  const uid = useId();
  // Empty at first, as the server rendered it: a prefill is applied by the layout effect below, so hydration matches.
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<ContactField, string>>>({});
  const [sending, setSending] = useState(false);
  const sendingRef = useRef(false);
  const honeypot = useRef<HTMLInputElement>(null);
  // The submission being sent and its Idempotency-Key: sent again unchanged (Send after an error), it keeps its key, so
  // the server stores it once even if an earlier send arrived and only its answer was lost; new content, a new key.
  const submission = useRef<{ content: string; key: string } | null>(null);
  const tracking = useFieldTracking('contact');

  // The local-discount button (or any other part of the page) prefills subject and message. A prefill asked for before
  // this runs applies here: before the form mounted (the button, then the form's section), or while the form was
  // hydrating (React hydrates in slices and lets a tap in between the form's render and its effects, which a
  // subscription made in the effect alone would miss). Before paint, so a form mounted with a prefill never shows empty.
  useLayoutEffect(() => {
    const apply = (draft: ContactDraft) => {
      setValues((v) => withDraft(v, draft));
      setErrors((e) => ({ ...e, subject: undefined, message: undefined }));
    };
    const pending = useContactDraft.getState().draft;
    if (pending) apply(pending);
    return useContactDraft.subscribe(({ draft }, before) => {
      if (draft && draft !== before.draft) apply(draft);
    });
  }, []);

  const set = (field: ContactField) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  const prepare = () => {
    void loadContactSubmit().catch(() => undefined);
    notify.prepare();
  };

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    // A ref, not state: a double click fires twice before React re-renders the disabled button.
    if (sendingRef.current) return;
    sendingRef.current = true;
    const form = e.currentTarget;
    try {
      // Loaded since the form got focus: then nothing here waits, and the button is disabled within this click.
      // Else the button says it is busy while the code loads.
      let code = contactSubmitNow();
      if (!code) {
        setSending(true);
        code = await loadContactSubmit().catch(() => null);
      }
      if (!code) {
        notify.error(CONTACT_TOASTS.error, { description: CONTACT_TOASTS.network });
        return;
      }
      const parsed = code.contactRequestSchema.safeParse(values);
      // The form is `noValidate`: no bubble of the browser's beside ours. Its email check still counts (spec section 5),
      // read without being shown: an address it refuses gets our message too.
      const emailRefused = (form.elements.namedItem('email') as HTMLInputElement | null)?.validity.typeMismatch ?? false;
      if (!parsed.success || emailRefused) {
        const found: Partial<Record<ContactField, string>> = parsed.success ? {} : code.contactFieldErrors(parsed.error);
        if (emailRefused) found.email ??= CONTACT_EMAIL_INVALID;
        // The messages are in the page before it scrolls: added later, they would shift the page under a smooth scroll
        // (scroll anchoring) and stop it short of the field.
        flushSync(() => setErrors(found));
        const first = FIELD_ORDER.find((f) => found[f]);
        if (first) focusField(form, first);
        return;
      }
      setSending(true);
      // One toast per send, turned from "sending" into its outcome.
      const toastId = `contact-send-${++sends}`;
      notify.loading(CONTACT_TOASTS.sending, { id: toastId, description: CONTACT_TOASTS.sendingDescription });
      const payload = { ...parsed.data, website: honeypot.current?.value || undefined };
      const content = JSON.stringify(payload);
      if (submission.current?.content !== content) submission.current = { content, key: code.newIdempotencyKey() };
      const result = await code.sendContactMessage(payload, { idempotencyKey: submission.current.key });
      if (result.kind === 'sent') {
        submission.current = null;
        notify.success(CONTACT_TOASTS.sent, { id: toastId, description: result.message || CONTACT_TOASTS.sentFallback });
        setValues(EMPTY);
        setErrors({});
        track('contact_submitted', { form: 'contact' });
      } else if (result.kind === 'rejected') {
        notify.error(CONTACT_TOASTS.error, { id: toastId, description: result.message || CONTACT_TOASTS.rejected });
      } else {
        notify.error(CONTACT_TOASTS.error, { id: toastId, description: CONTACT_TOASTS.network });
      }
    } finally {
      sendingRef.current = false;
      setSending(false);
    }
  }

  const field = (name: ContactField, label: string, control: (props: ControlProps) => ReactNode, hint?: ReactNode) => {
    const id = `${uid}-${name}`;
    const errorId = `${id}-error`;
    const hintId = `${id}-hint`;
    const error = errors[name];
    const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
    return (
      <div data-field={name} className={FIELD_SCROLL_MARGIN}>
        <label htmlFor={id} className="block text-sm font-medium text-fg">
          {label}
        </label>
        {control({
          id,
          name,
          value: values[name],
          onChange: set(name),
          onFocus: tracking.onFocus(name),
          onBlur: tracking.onBlur(name),
          'aria-invalid': error ? true : undefined,
          'aria-describedby': describedBy,
          maxLength: CONTACT_LIMITS[name],
          className: cn(inputClasses, error ? 'border-danger' : 'border-border'),
        })}
        {hint && (
          <p id={hintId} className="mt-1 text-xs text-muted-fg">
            {hint}
          </p>
        )}
        {error && (
          <p id={errorId} role="alert" className="mt-1 text-sm font-medium text-danger">
            {error}
          </p>
        )}
      </div>
    );
  };

  const messageLength = values.message.length;
  return (
    // noValidate: our messages (beside the fields, read out through aria-describedby), never the browser's bubble too;
    // required and type=email stay for assistive technology and autofill.
    <form noValidate onSubmit={onSubmit} onFocusCapture={prepare} onPointerEnter={prepare} aria-label="Contact form" className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        {field('name', 'Name', (p) => <input {...p} type="text" autoComplete="name" required placeholder="Jordan Lee" />)}
        {field('email', 'Email', (p) => (
          <input {...p} type="email" autoComplete="email" required placeholder="jordan@yourbusiness.com" />
        ))}
        {field('company', 'Company (optional)', (p) => (
          <input {...p} type="text" autoComplete="organization" placeholder="Diablo Bistro" />
        ))}
        {field('subject', 'Subject (optional)', (p) => <input {...p} type="text" placeholder="Automating phone orders" />)}
      </div>
      {field(
        'message',
        'Message',
        (p) => <textarea {...p} required rows={5} placeholder="Tell us what eats up your week: phone orders, scheduling, invoices, follow-ups…" />,
        <span aria-live={messageLength > CONTACT_LIMITS.message - 200 ? 'polite' : 'off'}>
          {formatCount(messageLength)} / {formatCount(CONTACT_LIMITS.message)} characters
        </span>,
      )}
      {/* Honeypot: hidden from people and assistive technology; bots that fill it are dropped by the API. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label>
          Website
          <input ref={honeypot} type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-fg">We reply within one business day. No spam, no mailing list.</p>
        <Button type="submit" size="lg" disabled={sending} aria-busy={sending || undefined}>
          {sending ? 'Sending…' : 'Send Message'}
        </Button>
      </div>
    </form>
  );
}

type ControlProps = {
  id: string;
  name: string;
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  onFocus: () => void;
  onBlur: () => void;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  maxLength: number;
  className: string;
};
