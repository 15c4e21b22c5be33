import { fireEvent, render, screen } from '@testing-library/react';
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
    expect(figure('Time on repetitive tasks')).toBe('220.83 hours/month');
    expect(figure('Monthly cost of that time')).toBe('$5,520.75');
    expect(figure('Monthly savings')).toBe('$3,864.53');
    expect(figure('Annual savings')).toBe('$46,374.30');
    expect(figure('ROI')).toBe('7.73%');
    expect(screen.getByRole('img', { name: 'Monthly cost before and after automation' })).toBeTruthy();
  });

  it('keeps results shown and follows later input changes; non-numeric input counts as 0', async () => {
    const user = userEvent.setup();
    renderAt();
    await user.click(screen.getByRole('button', { name: 'Calculate ROI' }));
    const revenue = screen.getByLabelText('Monthly revenue');
    await user.clear(revenue);
    expect(figure('ROI')).toBe('0%');
    expect(figure('Annual savings')).toBe('$46,374.30');
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Customer service (hours per week)' }), { target: { value: '' } });
    // 36 h/week x 4.33
    expect(figure('Time on repetitive tasks')).toBe('155.88 hours/month');
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
    expect(figure('Monthly savings')).toBe('$1,299.00');
    expect(figure('ROI')).toBe('0%');
  });
});
