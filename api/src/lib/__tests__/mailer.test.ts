import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailbox, type LoopbackMailbox } from '../../test-support/mailbox';
import { createSmtpMailer, mailMessageId } from '../mailer';

const MAIL = { to: 'owner@trivalley.test', from: 'site@trivalley.test', subject: 'Hello', text: 'Body' };

describe('the SMTP mailer', () => {
  let mailbox: LoopbackMailbox;
  beforeAll(async () => {
    mailbox = await startMailbox();
  });
  afterAll(() => mailbox.close());

  it('sends the Message-ID it is given, the same on every send of one mail', async () => {
    const mailer = createSmtpMailer(mailbox.url);
    const messageId = mailMessageId('contact', 'abc-123', 'https://www.trivalley.test/');
    expect(messageId).toBe('<contact-abc-123@www.trivalley.test>');
    try {
      await mailer.send({ ...MAIL, messageId });
      await mailer.send({ ...MAIL, messageId });
    } finally {
      mailer.close();
    }
    const ids = mailbox.received.slice(-2).map((raw) => /^Message-ID: (.*)$/im.exec(raw)?.[1]?.trim());
    expect(ids).toEqual([messageId, messageId]);
  });

  it('gives up on a server that never greets within its timeout, not nodemailer minutes', async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const mailer = createSmtpMailer(`smtp://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, { timeoutMs: 300 });
    const started = Date.now();
    try {
      await expect(mailer.send(MAIL)).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      mailer.close();
      silent.close();
    }
  });
});
