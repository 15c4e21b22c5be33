import nodemailer from 'nodemailer';
import SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import { traceparentForSend } from './request-context';
import { TRACEPARENT_HEADER } from './trace-context';
import { SpanKind, withSpan } from './tracing';

export interface OutgoingMail {
  to: string;
  from: string;
  replyTo?: string;
  subject: string;
  text: string;
  /**
   * The Message-ID header, `<…@host>`: the same on every attempt of one mail (mailMessageId), so a mail that goes out
   * twice (a crash between SMTP's acceptance and its record) is one message to mail clients. nodemailer makes a random
   * one without it.
   */
  messageId?: string;
}

/** A stable Message-ID for the site's mail of `kind` about the record `id`, on the host of the site's public origin. */
export function mailMessageId(kind: string, id: string, publicOrigin: string): string {
  let host = 'localhost';
  try {
    host = new URL(publicOrigin).hostname || host;
  } catch {
    // An origin that is no URL (tests) keeps localhost.
  }
  return `<${kind}-${id}@${host}>`;
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
export function createSmtpMailer(smtpUrl: string, options: { timeoutMs?: number; onError?: (error: Error) => void } = {}): Mailer {
  const timeout = options.timeoutMs ?? 15_000;
  const server = new URL(smtpUrl);
  // The transport's own options (a URL string alone, or these as createTransport's second argument, which only holds
  // message defaults, left nodemailer's 2-minute connect and 10-minute socket timeouts in force). Mails of a queue go
  // out on kept connections rather than a new SMTP session each, so the outbox drains at its own rate.
  const transport = nodemailer.createTransport(
    new SMTPPool({ url: smtpUrl, pool: true, maxConnections: 2, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout }),
  );
  // nodemailer re-emits its transport's errors on the transporter: unheard, one would end the process. A send's own
  // failure still reaches its caller through sendMail.
  transport.on('error', (error: Error) => options.onError?.(error));
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
