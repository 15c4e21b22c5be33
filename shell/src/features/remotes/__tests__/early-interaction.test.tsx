// @vitest-environment jsdom
// jsdom, not the projects' happy-dom: hydrating server HTML with early input (fake timers, form submit) loops or loses events under happy-dom.
import { act, useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepEarlyInteraction } from '../lib/early-interaction';

function Page({ onSend }: { onSend: (sent: { name: string; plan: string; town: string }) => void }) {
  const [name, setName] = useState('');
  const [plan, setPlan] = useState('basic');
  const [town, setTown] = useState('Danville');
  return (
    <form
      aria-label="Contact"
      onSubmit={(e) => {
        e.preventDefault();
        onSend({ name, plan, town });
      }}
    >
      <input aria-label="Name" value={name} onChange={(e) => setName(e.target.value)} />
      <label>
        <input type="radio" name="plan" value="basic" checked={plan === 'basic'} onChange={() => setPlan('basic')} /> Basic
      </label>
      <label>
        <input type="radio" name="plan" value="pro" checked={plan === 'pro'} onChange={() => setPlan('pro')} /> Pro
      </label>
      <select aria-label="Town" value={town} onChange={(e) => setTown(e.target.value)}>
        <option>Danville</option>
        <option>San Ramon</option>
        <option value="">No town</option>
      </select>
      <button type="submit">Send</button>
      <a href="#elsewhere">Elsewhere</a>
    </form>
  );
}

const setNativeValue = (input: HTMLInputElement, value: string) => {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
};

describe('keepEarlyInteraction', () => {
  let stop = () => {};
  afterEach(() => {
    vi.useRealTimers();
    stop();
    document.body.innerHTML = '';
  });

  function serverRendered({ watch = true } = {}) {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Page onSend={() => undefined} />);
    document.body.append(container);
    if (watch) stop = keepEarlyInteraction(container);
    return container;
  }

  it('what a visitor types, picks and clicks before hydration reaches the page once hydrated, in order', async () => {
    const container = serverRendered();
    const onSend = vi.fn();
    setNativeValue(container.querySelector('input[aria-label="Name"]')!, 'Ada');
    container.querySelector<HTMLInputElement>('input[value="pro"]')!.click();
    const send = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    container.querySelector('button')!.dispatchEvent(send);
    expect(send.defaultPrevented).toBe(true);

    await act(async () => {
      hydrateRoot(container, <Page onSend={onSend} />);
    });
    await vi.waitFor(() => expect(onSend).toHaveBeenCalledWith({ name: 'Ada', plan: 'pro', town: 'Danville' }), { timeout: 3000 });
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(container.querySelector<HTMLInputElement>('input[aria-label="Name"]')!.value).toBe('Ada');
  });

  it('fields changed before this code even loaded (it comes after the first paint) are handed over too', async () => {
    const container = serverRendered({ watch: false });
    const onSend = vi.fn();
    // The visitor acts while nothing listens: no event reaches us, only the fields keep what was done.
    container.querySelector<HTMLInputElement>('input[aria-label="Name"]')!.value = 'Grace';
    container.querySelector<HTMLSelectElement>('select')!.value = '';
    container.querySelector<HTMLInputElement>('input[value="pro"]')!.checked = true;
    stop = keepEarlyInteraction(container);
    await act(async () => {
      hydrateRoot(container, <Page onSend={onSend} />);
    });
    // Sent again until the page has every field (each is handed over in turn): what the page sends is the event.
    await vi.waitFor(
      async () => {
        onSend.mockClear();
        await act(async () => {
          container.querySelector('form')!.requestSubmit();
        });
        expect(onSend).toHaveBeenCalledWith({ name: 'Grace', plan: 'pro', town: '' });
      },
      { timeout: 3000 },
    );
  });

  it("a click held by the page's inline loader before this code ran reaches the page, after what was typed", async () => {
    const container = serverRendered({ watch: false });
    const onSend = vi.fn();
    const button = container.querySelector('button')!;
    window.__siteEarly = { stop: () => [{ kind: 'click', element: button }] };
    container.querySelector<HTMLInputElement>('input[aria-label="Name"]')!.value = 'Ada';
    stop = keepEarlyInteraction(container);
    expect(window.__siteEarly).toBeUndefined();
    await act(async () => {
      hydrateRoot(container, <Page onSend={onSend} />);
    });
    await vi.waitFor(() => expect(onSend).toHaveBeenCalledWith({ name: 'Ada', plan: 'basic', town: 'Danville' }), { timeout: 3000 });
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('an untouched server-rendered form hands nothing over', async () => {
    const container = serverRendered({ watch: false });
    const onChange = vi.fn();
    container.addEventListener('change', onChange);
    container.addEventListener('input', onChange);
    // The test's clock: every hand-over timer the module could have armed runs before the check, none is left.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    stop = keepEarlyInteraction(container);
    await act(async () => {
      hydrateRoot(container, <Page onSend={() => undefined} />);
    });
    await vi.runAllTimersAsync();
    expect(vi.getTimerCount()).toBe(0);
    vi.useRealTimers();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('Enter before hydration does not reload the page: the form is submitted to the page once hydrated', async () => {
    const container = serverRendered();
    const onSend = vi.fn();
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    container.querySelector('form')!.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    await act(async () => {
      hydrateRoot(container, <Page onSend={onSend} />);
    });
    await vi.waitFor(() => expect(onSend).toHaveBeenCalledTimes(1), { timeout: 3000 });
  });

  it('once hydrated, everything goes straight to React', async () => {
    const container = serverRendered();
    const onSend = vi.fn();
    await act(async () => {
      hydrateRoot(container, <Page onSend={onSend} />);
    });
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    container.querySelector('a')!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(false);
  });
});
