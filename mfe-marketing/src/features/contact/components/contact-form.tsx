import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { CONTACT_LIMITS, contactFieldErrors, contactRequestSchema, type ContactField } from '@site/contracts/contact';
import { Button, cn, track } from '@site/ui';
import { useContactDraft, type ContactDraft } from '../../../lib/contact-draft';
import { sendContactMessage } from '../api/send-contact-message';
import { useFieldTracking } from '../hooks/use-field-tracking';

type Values = Record<ContactField, string>;
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

const inputClasses =
  'mt-1.5 block w-full rounded-lg border bg-surface px-3.5 py-2.5 text-fg shadow-sm placeholder:text-muted-fg/70 focus:border-primary focus:outline-none focus:ring-2 focus:ring-ring/40';

/** The contact form (spec sections 3, 4, 5 and 8): validated like the API, one send per click, toasts for every outcome. */
export function ContactForm() {
  const uid = useId();
  // A prefill requested before the form mounted (the local-discount button, then the form's section) applies at once.
  const [values, setValues] = useState<Values>(() => withDraft(EMPTY, useContactDraft.getState().draft));
  const [errors, setErrors] = useState<Partial<Record<ContactField, string>>>({});
  const [sending, setSending] = useState(false);
  const sendingRef = useRef(false);
  const honeypot = useRef<HTMLInputElement>(null);
  const tracking = useFieldTracking('contact');

  // The local-discount button (or any other part of the page) may prefill subject and message later on.
  useEffect(
    () =>
      useContactDraft.subscribe(({ draft }, before) => {
        if (!draft || draft === before.draft) return;
        setValues((v) => withDraft(v, draft));
        setErrors((e) => ({ ...e, subject: undefined, message: undefined }));
      }),
    [],
  );

  const set = (field: ContactField) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  // The browser's own check (required, type=email) stops the submit before onSubmit runs: show the same
  // messages inline as well, so they stay visible and reach screen readers through aria-describedby.
  const onInvalid = () => {
    const parsed = contactRequestSchema.safeParse(values);
    if (!parsed.success) setErrors(contactFieldErrors(parsed.error));
  };

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    // A ref, not state: a double click fires twice before React re-renders the disabled button.
    if (sendingRef.current) return;
    const parsed = contactRequestSchema.safeParse(values);
    if (!parsed.success) {
      const found = contactFieldErrors(parsed.error);
      setErrors(found);
      const first = FIELD_ORDER.find((f) => found[f]);
      if (first) (e.currentTarget.elements.namedItem(first) as HTMLElement | null)?.focus();
      return;
    }
    sendingRef.current = true;
    setSending(true);
    const toastId = toast.loading(CONTACT_TOASTS.sending, { description: CONTACT_TOASTS.sendingDescription });
    try {
      const result = await sendContactMessage({ ...parsed.data, website: honeypot.current?.value || undefined });
      if (result.kind === 'sent') {
        toast.success(CONTACT_TOASTS.sent, { id: toastId, description: result.message || CONTACT_TOASTS.sentFallback });
        setValues(EMPTY);
        setErrors({});
        track('contact_submitted', { form: 'contact' });
      } else if (result.kind === 'rejected') {
        toast.error(CONTACT_TOASTS.error, { id: toastId, description: result.message || CONTACT_TOASTS.rejected });
      } else {
        toast.error(CONTACT_TOASTS.error, { id: toastId, description: CONTACT_TOASTS.network });
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
      <div>
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
    <form onSubmit={onSubmit} onInvalidCapture={onInvalid} aria-label="Contact form" className="space-y-5">
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
          {messageLength.toLocaleString('en-US')} / {CONTACT_LIMITS.message.toLocaleString('en-US')} characters
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
