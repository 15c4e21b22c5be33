import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Scorecard } from '../scorecard';
import { ScorecardErrorPanel } from '../scorecard-error-boundary';
import { LUNA, lunaCopy, prepare } from './scorecard-kit';

/** An answer that makes rendering throw: an opportunity that is an object, not text. */
function broken(name?: string) {
  const r = lunaCopy();
  r.aiAssessment.topOpportunities = [{ not: 'text' }];
  if (name === undefined) delete r.businessInfo;
  else r.businessInfo.businessName = name;
  return r;
}

// A large tree driven by user-event on a shared 2-core machine: allow more than the default 5 s per test.
vi.setConfig({ testTimeout: 20_000 });

describe('Scorecard render failure', () => {
  let error: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    prepare();
    error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => error.mockRestore());

  it("shows 'Scorecard Error' with the business name, the likely causes and the two buttons instead of a blank page", () => {
    render(
      <MemoryRouter>
        <p>Page above the scorecard</p>
        <Scorecard result={broken('Luna Pizza Danville')} onRetry={() => undefined} />
      </MemoryRouter>,
    );
    const panel = screen.getByRole('alert');
    expect(within(panel).getByRole('heading', { name: 'Scorecard Error' })).toBeTruthy();
    expect(within(panel).getByText('Error analyzing Luna Pizza Danville')).toBeTruthy();
    expect(within(panel).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Temporary API service issues',
      'Network connectivity problems',
      'Data processing errors',
    ]);
    expect(within(panel).getByRole('button', { name: 'Retry Analysis' })).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Refresh Page' })).toBeTruthy();
    expect(within(panel).getByText('If the problem persists, please contact support')).toBeTruthy();
    expect(screen.getByText('Page above the scorecard')).toBeTruthy();
  });

  it("says 'Error analyzing business' without a name", () => {
    render(
      <MemoryRouter>
        <Scorecard result={broken()} />
      </MemoryRouter>,
    );
    expect(screen.getByText('Error analyzing business')).toBeTruthy();
  });

  it("'Retry Analysis' calls onRetry and resets the panel; a good answer then shows the scorecard", async () => {
    const onRetry = vi.fn();
    const user = userEvent.setup();
    const { rerender } = render(
      <MemoryRouter>
        <Scorecard result={broken('Luna Pizza Danville')} onRetry={onRetry} />
      </MemoryRouter>,
    );
    rerender(
      <MemoryRouter>
        <Scorecard result={broken('Luna Pizza Danville')} onRetry={onRetry} />
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('button', { name: 'Retry Analysis' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    rerender(
      <MemoryRouter>
        <Scorecard result={LUNA} onRetry={onRetry} />
      </MemoryRouter>,
    );
    expect(screen.queryByText('Scorecard Error')).toBeNull();
    expect(screen.getByRole('heading', { level: 2, name: 'Luna Pizza Danville' })).toBeTruthy();
  });

  it("'Refresh Page' reloads the page", async () => {
    const reload = vi.fn();
    const original = window.location;
    Object.defineProperty(window, 'location', { configurable: true, value: { ...original, reload } });
    try {
      const user = userEvent.setup();
      render(<ScorecardErrorPanel businessName="Luna" onRetry={() => undefined} />);
      await user.click(screen.getByRole('button', { name: 'Refresh Page' }));
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      Object.defineProperty(window, 'location', { configurable: true, value: original });
    }
  });
});
