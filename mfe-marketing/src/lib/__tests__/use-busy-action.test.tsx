import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useBusyAction } from '../use-busy-action';

/** A handler the test finishes (or fails) by hand. */
function gate() {
  let release!: () => void;
  let fail!: (err: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  return { done, release, fail };
}

describe('useBusyAction', () => {
  afterEach(() => vi.restoreAllMocks());

  it('names the clicked button while its handler runs, ignores other clicks meanwhile, then clears', async () => {
    const { result } = renderHook(() => useBusyAction());
    const g = gate();
    const second = vi.fn();
    let first!: Promise<void>;
    act(() => {
      first = result.current.run('hero-primary', () => g.done);
    });
    expect(result.current).toMatchObject({ busyKey: 'hero-primary', busy: true });
    await act(() => result.current.run('hero-secondary', second));
    expect(second).not.toHaveBeenCalled();
    await act(async () => {
      g.release();
      await first;
    });
    expect(result.current).toMatchObject({ busyKey: null, busy: false });
  });

  it('clears the flag when the handler fails and reports the error to the console only', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { result } = renderHook(() => useBusyAction());
    const g = gate();
    let run!: Promise<void>;
    act(() => {
      run = result.current.run('cta-0', () => g.done);
    });
    await act(async () => {
      g.fail(new Error('offline'));
      await run;
    });
    expect(result.current.busy).toBe(false);
    expect(logged).toHaveBeenCalledWith('Navigation from "cta-0" failed', expect.objectContaining({ message: 'offline' }));
  });

  it("aborts the handler's signal when the page unmounts", async () => {
    const { result, unmount } = renderHook(() => useBusyAction());
    const g = gate();
    let signal!: AbortSignal;
    let run!: Promise<void>;
    act(() => {
      run = result.current.run('story', (s) => {
        signal = s;
        return g.done;
      });
    });
    expect(signal.aborted).toBe(false);
    unmount();
    expect(signal.aborted).toBe(true);
    g.release();
    await run;
  });
});
