import { act, fireEvent, render } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { useEngagementTracking } from '../hooks/use-engagement-tracking';
import { prepare, type SentEvent } from './test-kit';

let events: SentEvent[];
function Page({ path }: { path: string }) {
  useEngagementTracking(path);
  return <p>page</p>;
}

beforeEach(() => {
  ({ events } = prepare());
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
});
afterEach(() => vi.useRealTimers());

const settle = async () => {
  vi.useRealTimers();
  await new Promise((r) => setTimeout(r, 50));
};

it('sends time on page at 30, 60 and 120 s, once each per page view', async () => {
  const { unmount } = render(<Page path="/free-analysis" />);
  await act(async () => void vi.advanceTimersByTime(29_000));
  await act(async () => void vi.advanceTimersByTime(200_000));
  await settle();
  expect(events.filter((e) => e.name === 'time_on_page').map((e) => e.props)).toEqual([
    { seconds: 30, page: '/free-analysis' },
    { seconds: 60, page: '/free-analysis' },
    { seconds: 120, page: '/free-analysis' },
  ]);
  unmount();
});

it('sends scroll depth 25/50/75/90 once each as the visitor scrolls down', async () => {
  Object.defineProperty(document.documentElement, 'scrollHeight', { value: 4000, configurable: true });
  Object.defineProperty(window, 'innerHeight', { value: 1000, configurable: true });
  render(<Page path="/website-analysis" />);
  const scrollTo = async (y: number) => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    fireEvent.scroll(window);
    await act(async () => void vi.advanceTimersByTime(20));
  };
  await scrollTo(0); // 25 %
  await scrollTo(1100); // 52 %
  await scrollTo(0);
  await scrollTo(1200); // 55 %: 50 was sent already
  await scrollTo(3000); // 100 %
  await scrollTo(3000);
  await settle();
  expect(events.filter((e) => e.name === 'scroll_depth').map((e) => e.props?.depth)).toEqual([25, 50, 75, 90]);
  // Unmounted pages send nothing more.
  Object.defineProperty(document.documentElement, 'scrollHeight', { value: 0, configurable: true });
});
