import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RoiCalculator } from '../components/roi-calculator';

function renderAt(url = '/roi-calculator') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <RoiCalculator />
    </MemoryRouter>,
  );
}

const figure = (label: string) => screen.getByText(label).nextElementSibling?.textContent;

describe('RoiCalculator', () => {
  beforeEach(() => {
    Object.defineProperty(navigator, 'sendBeacon', { value: () => true, configurable: true });
    window.history.replaceState(null, '', '/roi-calculator');
  });
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('hides results until Calculate ROI, then shows the spec figures for the defaults', async () => {
    const user = userEvent.setup();
    renderAt();
    expect(screen.queryByText('Annual savings')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Calculate ROI' }));
    expect(figure('Time on repetitive tasks')).toBe('220.8 hours/month');
    expect(figure('Monthly cost of that time')).toBe('$5,521');
    expect(figure('Monthly savings')).toBe('$3,865');
    expect(figure('Annual savings')).toBe('$46,374');
    expect(figure('ROI')).toBe('7.73%');
    expect(screen.getByRole('img', { name: 'Monthly cost before and after automation' })).toBeTruthy();
  });

  it('moves focus to the results once they are shown, and again on a later press', async () => {
    const user = userEvent.setup();
    renderAt();
    await user.click(screen.getByRole('button', { name: 'Calculate ROI' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your estimated savings' })));
    await user.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    expect(document.activeElement).not.toBe(screen.getByRole('heading', { name: 'Your estimated savings' }));
    await user.click(screen.getByRole('button', { name: 'Calculate ROI' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Your estimated savings' }));
  });

  it('keeps results shown and follows later input changes; non-numeric input counts as 0', async () => {
    const user = userEvent.setup();
    renderAt();
    await user.click(screen.getByRole('button', { name: 'Calculate ROI' }));
    const revenue = screen.getByLabelText('Monthly revenue');
    await user.clear(revenue);
    expect(figure('ROI and payback period')).toBe('Enter your monthly revenue to see ROI and payback');
    expect(figure('Annual savings')).toBe('$46,374');
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Customer service (hours per week)' }), { target: { value: '' } });
    // 36 h/week x 4.33
    expect(figure('Time on repetitive tasks')).toBe('155.9 hours/month');
  });

  it('moves the number field with the slider', () => {
    renderAt();
    fireEvent.change(screen.getByRole('slider', { name: 'Automation efficiency' }), { target: { value: '85' } });
    expect((screen.getByRole('spinbutton', { name: 'Automation efficiency (percent)' }) as HTMLInputElement).value).toBe('85');
  });

  it('restores a shared scenario from the query, results included', () => {
    renderAt('/roi-calculator?customerService=20&appointmentScheduling=0&invoicingAndBilling=0&dataEntryAndReporting=0&followUpsAndReminders=0&costPerHour=30&staffCount=2&monthlyRevenue=0&automationEfficiency=50');
    // 20 x 4.33 = 86.6 h; x $30 = $2,598; x 50% = $1,299
    expect(figure('Time on repetitive tasks')).toBe('86.6 hours/month');
    expect(figure('Monthly savings')).toBe('$1,299');
    expect(figure('ROI and payback period')).toBe('Enter your monthly revenue to see ROI and payback');
  });

  it("says what is missing instead of 'ROI 0%' and 'Payback period 0 years' (instant payback) when revenue is 0", async () => {
    const user = userEvent.setup();
    renderAt();
    await user.click(screen.getByRole('button', { name: 'Calculate ROI' }));
    const revenue = screen.getByLabelText('Monthly revenue');
    await user.clear(revenue);
    await user.type(revenue, '0');
    const results = screen.getByRole('region', { name: 'Your estimated savings' });
    expect(results.textContent).toContain('Enter your monthly revenue to see ROI and payback');
    expect(results.textContent).not.toMatch(/0 years|\b0%/);
    expect(screen.queryByText('ROI')).toBeNull();
    expect(screen.queryByText('Payback period')).toBeNull();
    // Revenue back: both figures return.
    await user.clear(revenue);
    await user.type(revenue, '50000');
    expect(figure('ROI')).toBe('7.73%');
    expect(figure('Payback period')).toBe('12.9 years');
  });

  it('says there is nothing to pay back when the savings are 0, instead of a payback of 0 years', () => {
    renderAt('/roi-calculator?customerService=10&costPerHour=25&automationEfficiency=0&monthlyRevenue=50000');
    expect(figure('ROI')).toBe('0%');
    expect(figure('Payback period')).toBe('No savings to pay back yet');
  });
  it('says when the hours come from a scorecard built on sample data (the analysis hand-off), and only then', () => {
    const { unmount } = renderAt('/roi-calculator?customerService=16&appointmentScheduling=4&costPerHour=25&automationEfficiency=70&from=sample-analysis');
    expect(screen.getByRole('note').textContent).toMatch(/^Prefilled from sample data/);
    unmount();
    renderAt('/roi-calculator?customerService=16&appointmentScheduling=4&costPerHour=25&automationEfficiency=70');
    expect(screen.queryByText(/sample data/)).toBeNull();
  });

  it('leads with the savings in dollars and says what ROI and payback mean next to them', async () => {
    const user = userEvent.setup();
    renderAt();
    await user.click(screen.getByRole('button', { name: 'Calculate ROI' }));
    const labels = [...document.querySelectorAll('dt')].map((d) => d.textContent);
    expect(labels.slice(0, 2)).toEqual(['Monthly savings', 'Annual savings']);
    expect(screen.getByText(/What ROI means here: your annual savings as a share of your annual revenue/)).toBeTruthy();
    expect(screen.getByText(/What payback means here: how many years of these savings add up to one year of your revenue/)).toBeTruthy();
    // 600,000 / 46,374.30 = 12.94 years
    expect(figure('Payback period')).toBe('12.9 years');
  });

  it('refuses values over a sensible maximum with a message tied to the field, and calculates with the maximum', async () => {
    const user = userEvent.setup();
    renderAt();
    await user.click(screen.getByRole('button', { name: 'Calculate ROI' }));
    const cost = screen.getByLabelText('Cost per hour');
    await user.clear(cost);
    await user.type(cost, '5000');
    const message = screen.getByRole('alert');
    expect(message.textContent).toBe('Enter at most $500. The calculation uses $500.');
    expect(cost.getAttribute('aria-invalid')).toBe('true');
    expect(cost.getAttribute('aria-describedby')).toContain(message.id);
    // 220.83 h x $500 = $110,415
    expect(figure('Monthly cost of that time')).toBe('$110,415');
    const hours = screen.getByRole('spinbutton', { name: 'Customer service (hours per week)' });
    fireEvent.change(hours, { target: { value: '400' } });
    expect(screen.getByText('Enter at most 40 hours per week. The calculation uses 40 hours per week.')).toBeTruthy();
  });

  it('shows a short explanation, not an empty box, before Calculate ROI', () => {
    renderAt();
    expect(screen.getByText('Your results appear here')).toBeTruthy();
    expect(screen.getByText(/those savings as a share of your annual revenue/)).toBeTruthy();
  });
});
