import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { replayEarlyClicks } from '../lib/replay-early-clicks';

function Page({ onGo }: { onGo: () => void }) {
  return (
    <main>
      <button type="button" onClick={onGo}>
        Schedule Free Consultation
      </button>
      <a href="#contact">Contact</a>
    </main>
  );
}

describe('replayEarlyClicks', () => {
  let stop = () => {};
  afterEach(() => {
    stop();
    document.body.innerHTML = '';
  });

  it('a click on a server-rendered button before hydration runs its handler once the button is hydrated', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Page onGo={() => undefined} />);
    document.body.append(container);
    stop = replayEarlyClicks(container);
    const onGo = vi.fn();

    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    container.querySelector('button')!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(onGo).not.toHaveBeenCalled();

    await act(async () => {
      hydrateRoot(container, <Page onGo={onGo} />);
    });
    await vi.waitFor(() => expect(onGo).toHaveBeenCalledTimes(1));
    // Once hydrated, clicks go straight to React.
    container.querySelector('button')!.click();
    expect(onGo).toHaveBeenCalledTimes(2);
  });

  it('leaves links to the browser: they work without JavaScript', () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Page onGo={() => undefined} />);
    document.body.append(container);
    stop = replayEarlyClicks(container);
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    container.querySelector('a')!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(false);
  });
});
