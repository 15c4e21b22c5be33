import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertsRepository } from '../alerts-repository';
import { createLeasesRepository } from '../../db/leases-repository';
import { createLogger } from '../../lib/logger';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import type { Mailer, OutgoingMail } from '../../lib/mailer';
import { createAlertService } from '../alert-service';

describe.each(testBackends())('alert mails ($name)', (backend) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await backend.open();
  });
  afterAll(() => db.dispose());

  it('mails the owner at most once per alert type per 15 minutes and records which alerts were mailed', async () => {
    let now = Date.parse('2026-05-04T09:00:00.000Z');
    const sent: OutgoingMail[] = [];
    // A local mailer that records what it is asked to send (SMTP itself is tested in the contact tests).
    const mailer: Mailer = { send: async (mail) => void sent.push(mail), close: () => {} };
    const alerts = createAlertService({
      alerts: createAlertsRepository(db.handle.db),
      slots: createLeasesRepository(db.handle.db),
      clock: () => new Date(now),
      logger: createLogger({ level: 'silent' }),
      mailer,
      mailTo: 'owner@example.com',
      mailFrom: 'site <no-reply@example.com>',
    });
    const raise = (type: 'failedLogins' | 'errors', title: string) => {
      now += 1000;
      return alerts.raise({ type, severity: 'high', title, message: `${title} happened` });
    };

    const first = await raise('failedLogins', 'Burst one');
    const second = await raise('failedLogins', 'Burst two');
    const other = await raise('errors', 'A 500');
    expect([first?.emailSent, second?.emailSent, other?.emailSent]).toEqual([true, false, true]);
    expect(sent.map((m) => [m.to, m.subject])).toEqual([
      ['owner@example.com', '[HIGH] Burst one'],
      ['owner@example.com', '[HIGH] A 500'],
    ]);
    now += 15 * 60_000 - 3000;
    expect((await raise('failedLogins', 'Burst three'))?.emailSent).toBe(true);

    // Email off for a type: stored, not mailed.
    await alerts.updateSetting('errors', { email: false });
    now += 16 * 60_000;
    expect((await raise('errors', 'Another 500'))?.emailSent).toBe(false);
    expect(sent).toHaveLength(3);
    const history = await alerts.history(10);
    expect(history.alerts.map((a) => [a.title, a.emailSent])).toEqual([
      ['Another 500', false],
      ['Burst three', true],
      ['A 500', true],
      ['Burst two', false],
      ['Burst one', true],
    ]);
  });

  it('sends one mail when two instances raise an alert of one type at the same moment', async () => {
    const now = Date.parse('2026-06-01T09:00:00.000Z');
    const sent: OutgoingMail[] = [];
    const mailer: Mailer = { send: async (mail) => void sent.push(mail), close: () => {} };
    // Two alert services on one database: what two server instances are.
    const instance = () =>
      createAlertService({
        alerts: createAlertsRepository(db.handle.db),
        slots: createLeasesRepository(db.handle.db),
        clock: () => new Date(now),
        logger: createLogger({ level: 'silent' }),
        mailer,
        mailTo: 'owner@example.com',
        mailFrom: 'site <no-reply@example.com>',
      });
    const [a, b] = [instance(), instance()];
    const raised = await Promise.all([
      a.raise({ type: 'healthCheck', severity: 'critical', title: 'Database is down', message: 'seen by A' }),
      b.raise({ type: 'healthCheck', severity: 'critical', title: 'Database is down', message: 'seen by B' }),
      a.raise({ type: 'healthCheck', severity: 'critical', title: 'Database is down', message: 'seen by A again' }),
    ]);
    expect(raised.every((r) => r !== undefined)).toBe(true);
    expect(sent).toHaveLength(1);
    expect(raised.filter((r) => r?.emailSent)).toHaveLength(1);
  });
});
