// @vitest-environment jsdom
// jsdom: hydration of the server's HTML, with controlled inputs whose DOM value is what a visitor sees.
import { act } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { useContactDraft } from '../../../lib/contact-draft';
import { ContactForm } from '../components/contact-form';

const DISCOUNT = { subject: 'Claim local discount DANVILLE20', message: 'Please apply my discount' };

/**
 * The hero's "Claim DANVILLE20 Discount" pressed while the contact section is hydrating: React hydrates in slices and
 * lets the page's events in between, so the press can land after the form's first render and before its effects.
 * Rendered after the form, this asks for the prefill at exactly that moment.
 */
let pressDuringHydration = false;
function PressBetweenRenderAndEffects() {
  if (pressDuringHydration) {
    pressDuringHydration = false;
    useContactDraft.getState().prefill(DISCOUNT);
  }
  return null;
}

describe('ContactForm hydrated around a prefill', () => {
  let root: Root | undefined;
  let container: HTMLElement | undefined;
  afterEach(() => {
    act(() => root?.unmount());
    container?.remove();
    useContactDraft.setState({ draft: null });
    pressDuringHydration = false;
  });

  async function hydrate() {
    const page = (
      <>
        <ContactForm />
        <PressBetweenRenderAndEffects />
      </>
    );
    container = document.createElement('div');
    container.innerHTML = renderToString(page);
    document.body.append(container);
    return page;
  }
  const field = (name: string) => container!.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`)!.value;

  it('shows the local discount asked for before its section came to life (a tap on a slow phone)', async () => {
    const page = await hydrate();
    act(() => useContactDraft.getState().prefill(DISCOUNT));
    const recovered: unknown[] = [];
    await act(async () => {
      root = hydrateRoot(container!, page, { onRecoverableError: (error) => recovered.push(error) });
    });
    expect(field('subject')).toBe(DISCOUNT.subject);
    expect(field('message')).toBe(DISCOUNT.message);
    // The server's HTML is hydrated as it is, not thrown away and rendered again for a mismatch.
    expect(recovered).toEqual([]);
  });

  it('shows the local discount asked for while its section was hydrating, between its render and its effects', async () => {
    const page = await hydrate();
    pressDuringHydration = true;
    await act(async () => {
      root = hydrateRoot(container!, page);
    });
    expect(useContactDraft.getState().draft?.subject).toBe(DISCOUNT.subject);
    expect(field('subject')).toBe(DISCOUNT.subject);
    expect(field('message')).toBe(DISCOUNT.message);
  });
});
