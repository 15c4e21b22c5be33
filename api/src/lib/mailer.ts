import nodemailer from 'nodemailer';
import { traceparentForSend } from './request-context';
import { TRACEPARENT_HEADER } from './trace-context';
import { SpanKind, withSpan } from './tracing';

export interface OutgoingMail {
  to: string;
  from: string;
  replyTo?: string;
  subject: string;
  text: string;
}

/** Sends one mail or throws. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * A nodemailer SMTP transport for `SMTP_URL` (e.g. `smtp://user:pass@mail.example.com:587`). A mail sent as part of a
 * request (the owner mail of a contact message, queued by it) carries a `traceparent` header: that request's trace,
 * with a span id of this send's own.
 */
export function createSmtpMailer(smtpUrl: string, options: { timeoutMs?: number } = {}): Mailer {
  const timeout = options.timeoutMs ?? 15_000;
  const server = new URL(smtpUrl);
  const transport = nodemailer.createTransport(smtpUrl, {
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  } as Parameters<typeof nodemailer.createTransport>[1]);
  return {
    async send(mail) {
      // The span names the server, never the credentials of SMTP_URL nor who the mail goes to.
      await withSpan('smtp send', { kind: SpanKind.CLIENT, attributes: { 'server.address': server.hostname, 'server.port': Number(server.port) || 25 } }, (span) => {
        const traceparent = traceparentForSend(span);
        return transport.sendMail(traceparent ? { ...mail, headers: { [TRACEPARENT_HEADER]: traceparent } } : mail);
      });
    },
    close() {
      transport.close();
    },
  };
}
