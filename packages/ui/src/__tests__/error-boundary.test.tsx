import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary, ErrorFallback } from '../error-boundary';

let shouldCrash = true;
function Fragile() {
  if (shouldCrash) throw new Error('render crash');
  return <p>All good</p>;
}

describe('the render-crash fallback', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the spec’s screen, and Try Again renders the content again once it works', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    shouldCrash = true;
    render(
      <ErrorBoundary fallback={({ reset }) => <ErrorFallback reset={reset} />}>
        <Fragile />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByText("We're sorry, but something unexpected happened. Please try refreshing the page.")).toBeTruthy();
    shouldCrash = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('All good')).toBeTruthy();
  });

  it('Refresh Page reloads the page', async () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload } as Location);
    render(<ErrorFallback reset={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Refresh Page' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('resets by itself when a reset key changes (the visitor navigated away)', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    shouldCrash = true;
    function Host() {
      const [path, setPath] = useState('/a');
      return (
        <>
          <button onClick={() => ((shouldCrash = false), setPath('/b'))}>go</button>
          <ErrorBoundary resetKeys={[path]} fallback={() => <p>fallback</p>}>
            <Fragile />
          </ErrorBoundary>
        </>
      );
    }
    render(<Host />);
    expect(screen.getByText('fallback')).toBeTruthy();
    screen.getByRole('button', { name: 'go' }).click();
    return screen.findByText('All good');
  });
});
