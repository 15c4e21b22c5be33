import { afterEach, describe, expect, it, vi } from 'vitest';
import { REMOTE_LOAD_TIMEOUT_MS } from '../../../config/remotes';
import { createRemoteLoader, RemoteLoadError } from '../lib/remote-loader';
import { fakeFederation, never } from './fake-federation';

const BlogApp = () => null;
const ENTRY = '/mfe/blog/assets/remoteEntry.js';

describe('loading a remote', () => {
  afterEach(() => vi.useRealTimers());

  it("loads ./App from the remote's entry URL and gives the component; a second caller shares the same load", async () => {
    const { runtime, requested } = fakeFederation(async () => ({ default: BlogApp }));
    const load = createRemoteLoader(runtime);
    const preload = load('blog', ENTRY);
    const area = load('blog', ENTRY);
    expect(area).toBe(preload);
    expect((await area).default).toBe(BlogApp);
    expect(requested).toEqual([ENTRY]);
  });

  it('a remote that is down fails with a RemoteLoadError naming the remote and the reason', async () => {
    const { runtime } = fakeFederation(() => Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${ENTRY}`)));
    const error = await createRemoteLoader(runtime)('blog', ENTRY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteLoadError);
    expect((error as RemoteLoadError).remote).toBe('blog');
    expect((error as Error).message).toBe(`Remote "blog" could not be loaded: Failed to fetch dynamically imported module: ${ENTRY}`);
  });

  it('a file that is not a remote (no component as ./App) fails the same way', async () => {
    for (const exported of [undefined, null, 'not a component', 42]) {
      const { runtime } = fakeFederation(async () => ({ default: exported }));
      await expect(createRemoteLoader(runtime)('blog', ENTRY)).rejects.toThrow('Remote "blog" could not be loaded: ./App is not a component');
    }
  });

  it(`gives up after ${REMOTE_LOAD_TIMEOUT_MS / 1000} s without an answer, and a late answer does not count`, async () => {
    vi.useFakeTimers();
    let answer!: (mod: unknown) => void;
    const { runtime } = fakeFederation(() => new Promise((resolve) => (answer = resolve)));
    const outcome = createRemoteLoader(runtime)('blog', ENTRY).then(
      () => 'loaded',
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(REMOTE_LOAD_TIMEOUT_MS - 1);
    let settled = false;
    void outcome.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(RemoteLoadError);
    expect((error as Error).message).toBe('Remote "blog" could not be loaded: no answer within 5 s');
    answer({ default: BlogApp });
    expect(await outcome).toBe(error);
  });

  it('a Retry goes back to the network with a fresh URL, and succeeds once the remote is back', async () => {
    let up = false;
    const { runtime, requested } = fakeFederation(async () => {
      if (!up) throw new TypeError('Failed to fetch');
      return { default: BlogApp };
    });
    const load = createRemoteLoader(runtime);
    await expect(load('blog', ENTRY)).rejects.toBeInstanceOf(RemoteLoadError);
    up = true;
    expect((await load('blog', ENTRY, 1)).default).toBe(BlogApp);
    // The browser's module map remembers the failed URL, so the retry must not ask for the same one.
    expect(requested).toEqual([ENTRY, `${ENTRY}?retry=1`]);
    await load('blog', `${ENTRY}?v=3`, 2);
    expect(requested.at(-1)).toBe(`${ENTRY}?v=3&retry=2`);
  });

  it('forgets a failed load a moment later, so asking again then tries again; a successful load is kept', async () => {
    let calls = 0;
    const { runtime } = fakeFederation(async () => {
      calls++;
      if (calls === 1) throw new TypeError('Failed to fetch');
      return { default: BlogApp };
    });
    // The test's clock: the failure is forgotten after a second of it, not of the machine's.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const load = createRemoteLoader(runtime);
    await expect(load('blog', ENTRY)).rejects.toThrow('Failed to fetch');
    // Right after the failure (React rendering the area again) it is the same failure, not a new wait.
    await vi.advanceTimersByTimeAsync(900);
    await expect(load('blog', ENTRY)).rejects.toThrow('Failed to fetch');
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    vi.useRealTimers();
    expect((await load('blog', ENTRY)).default).toBe(BlogApp);
    await load('blog', ENTRY);
    expect(calls).toBe(2);
  });

  it('loads each remote on its own: one that hangs does not hold up another', async () => {
    const { runtime } = fakeFederation((url) => (url.includes('/blog/') ? never() : Promise.resolve({ default: BlogApp })));
    const load = createRemoteLoader(runtime, 50);
    const blog = load('blog', ENTRY);
    expect((await load('marketing', '/mfe/marketing/assets/remoteEntry.js')).default).toBe(BlogApp);
    await expect(blog).rejects.toThrow('no answer within 0.05 s');
  });
});
