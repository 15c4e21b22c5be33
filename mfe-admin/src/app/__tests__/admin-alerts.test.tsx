import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ALERT_GROUPS,
  ALERT_TYPES,
  DEFAULT_THRESHOLDS,
  THRESHOLD_MESSAGE,
  type AlertEntry,
  type AlertGroup,
  type AlertSettings,
  type AlertSettingUpdate,
  type AlertType,
} from '@site/contracts/admin';
import { server } from '../../../../vitest.msw';
import { envelope, renderAdmin, serveSession } from './admin-test-kit';

const groupOf = (t: AlertType) => (Object.keys(ALERT_GROUPS) as AlertGroup[]).find((g) => (ALERT_GROUPS[g] as readonly string[]).includes(t))!;

function settings(): AlertSettings {
  return {
    emailConfigured: true,
    settings: ALERT_TYPES.map((type) => ({
      type,
      group: groupOf(type),
      enabled: true,
      email: false,
      threshold: type in DEFAULT_THRESHOLDS ? DEFAULT_THRESHOLDS[type as keyof typeof DEFAULT_THRESHOLDS] : null,
    })),
  };
}

const alert = (n: number, extra: Partial<AlertEntry> = {}): AlertEntry => ({
  id: `a${n}`,
  type: 'failedLogins',
  severity: 'high',
  title: `Burst of failed admin logins ${n}`,
  message: '5 failed logins within 15 minutes',
  detail: 'from 203.0.113.7',
  timestamp: new Date().toISOString(),
  emailSent: false,
  acknowledged: false,
  acknowledgedAt: null,
  ...extra,
});

/** The alert screen's requests: settings (PATCH answered by `patch`), history, health. */
function serveAlerts({ patch, alerts = [alert(1)] }: { patch?: (type: string, body: AlertSettingUpdate) => Response; alerts?: AlertEntry[] } = {}) {
  const patches: { type: string; body: AlertSettingUpdate }[] = [];
  let current = settings();
  server.use(
    http.get('/api/admin/alerts/settings', () => HttpResponse.json(current)),
    http.patch('/api/admin/alerts/settings/:type', async ({ params, request }) => {
      const body = (await request.json()) as AlertSettingUpdate;
      patches.push({ type: String(params.type), body });
      if (patch) return patch(String(params.type), body);
      current = { ...current, settings: current.settings.map((s) => (s.type === params.type ? { ...s, ...body } : s)) };
      return HttpResponse.json(current);
    }),
    http.get('/api/admin/alerts', () => HttpResponse.json({ alerts, total: alerts.length, unacknowledged: alerts.filter((a) => !a.acknowledged).length })),
    http.get('/api/admin/health', () => HttpResponse.json({ status: 'unknown', checkedAt: null, checks: [] })),
  );
  return patches;
}

describe('Alert Management', { timeout: 20_000 }, () => {
  it('thresholds accept whole numbers 1–100 only (the shared schema), with the toast on refusal', async () => {
    serveSession();
    const patches = serveAlerts();
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/alerts');
    const disk = await screen.findByLabelText('Disk space threshold (percent, 1 to 100)');
    expect((disk as HTMLInputElement).value).toBe('85');
    const save = screen.getByRole('button', { name: 'Save Disk space threshold' });

    for (const bad of ['0', '101', 'abc', '8.5']) {
      await user.clear(disk);
      await user.type(disk, bad);
      await user.click(save);
      // The form validates asynchronously (react-hook-form with the schema): wait for what the user then sees.
      await waitFor(() => expect(disk.getAttribute('aria-invalid')).toBe('true'));
      expect(document.getElementById(disk.getAttribute('aria-describedby')!)?.textContent).toBe(THRESHOLD_MESSAGE);
    }
    expect(await screen.findAllByText('Failed to update threshold')).toBeTruthy();
    expect(patches).toEqual([]);

    await user.clear(disk);
    await user.type(disk, '75');
    await user.click(save);
    await waitFor(() => expect(patches).toEqual([{ type: 'diskSpace', body: { threshold: 75 } }]));
    expect(await screen.findByText('Threshold updated')).toBeTruthy();
    expect(disk.getAttribute('aria-invalid')).toBeNull();
  });

  it("a threshold the server refuses says 'Failed to update threshold'", async () => {
    serveSession();
    serveAlerts({ patch: () => envelope(500, 'internal', 'boom') });
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/alerts');
    const cpu = await screen.findByLabelText('CPU threshold (percent, 1 to 100)');
    await user.clear(cpu);
    await user.type(cpu, '70');
    await user.click(screen.getByRole('button', { name: 'Save CPU threshold' }));
    expect(await screen.findByText('Failed to update threshold')).toBeTruthy();
  });

  it("a switch that fails to save flips back with 'Failed to update alert'", async () => {
    serveSession();
    const patches = serveAlerts({ patch: () => envelope(500, 'internal', 'boom') });
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/alerts');
    const toggle = await screen.findByRole('switch', { name: 'Memory alerts' });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    await user.click(toggle);
    expect(await screen.findByText('Failed to update alert')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Memory alerts' }).getAttribute('aria-checked')).toBe('true');
    expect(patches).toEqual([{ type: 'memory', body: { enabled: false } }]);
  });

  it('a switch that saves stays switched', async () => {
    serveSession();
    const patches = serveAlerts();
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/alerts');
    await user.click(await screen.findByRole('switch', { name: 'Email failed logins alerts' }));
    await waitFor(() => expect(patches).toEqual([{ type: 'failedLogins', body: { email: true } }]));
    expect(screen.getByRole('switch', { name: 'Email failed logins alerts' }).getAttribute('aria-checked')).toBe('true');
  });

  it('the history scrolls, acknowledges, and Clear history asks first; a failure says so', async () => {
    serveSession();
    serveAlerts({ alerts: [alert(1), alert(2, { acknowledged: true, acknowledgedAt: new Date().toISOString(), severity: 'low' })] });
    server.use(
      http.post('/api/admin/alerts/a1/acknowledge', () => HttpResponse.json(alert(1, { acknowledged: true, acknowledgedAt: new Date().toISOString() }))),
      http.delete('/api/admin/alerts', () => envelope(500, 'internal', 'boom')),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/alerts');
    const history = await screen.findByRole('region', { name: 'Alert history entries' });
    expect(within(history).getByText('Burst of failed admin logins 1')).toBeTruthy();
    expect(within(history).getAllByText('from 203.0.113.7')).toHaveLength(2);
    await user.click(within(history).getByRole('button', { name: /^Acknowledge/ }));
    await waitFor(() => expect(within(history).getAllByText('Acknowledged')).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'Clear history' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Clear history' }));
    expect(await screen.findByText('Failed to clear history')).toBeTruthy();
    expect(within(history).getByText('Burst of failed admin logins 1')).toBeTruthy();
  });
});
