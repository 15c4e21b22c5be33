import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface LoopbackMailbox {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** Every raw message accepted, in order. */
  received: string[];
  close(): Promise<void>;
}

/**
 * An SMTP server on loopback (port from the OS, no TLS, no auth) that keeps every raw message it accepts.
 * `onMessage` sees each message before it is answered: it may wait (a slow mail server) or throw (the message is refused
 * with the error's `responseCode`, e.g. 451 for "try again later", and not kept).
 */
export async function startMailbox(onMessage?: (raw: string) => void | Promise<void>): Promise<LoopbackMailbox> {
  const received: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        Promise.resolve()
          .then(() => onMessage?.(raw))
          .then(
            () => {
              received.push(raw);
              callback();
            },
            (error: Error) => callback(error),
          );
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
