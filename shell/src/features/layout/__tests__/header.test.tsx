import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { Header } from '../components/header';

/*
 * The phone menu is a popover the browser opens and closes itself (its button's popovertarget, Escape, a tap outside):
 * neither jsdom nor happy-dom implements that, so the browser tests (foundation-shell, visitor-polish) drive it. Here:
 * the wiring, and what the button says as the browser's toggle events come.
 */
describe('Header', () => {
  beforeEach(() => {
    window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {}, onchange: null, dispatchEvent: () => false })) as unknown as typeof window.matchMedia;
  });

  /** The header on the home page: its menu button and the navigation that button opens. */
  const renderHeader = () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Header />
      </MemoryRouter>,
    );
    const button = screen.getByRole('button', { name: 'Open menu' });
    return { button, nav: document.getElementById(button.getAttribute('popovertarget')!)! };
  };

  const toggle = (target: Element, newState: 'open' | 'closed') =>
    target.dispatchEvent(Object.assign(new Event('toggle'), { newState, oldState: newState === 'open' ? 'closed' : 'open' }));

  it('opens the Mobile navigation as a popover of the menu button, and says Close menu while it is open', async () => {
    const { button, nav } = renderHeader();
    expect(nav.getAttribute('popover')).toBe('auto');
    expect(nav.getAttribute('aria-label')).toBe('Mobile');
    expect(button.getAttribute('aria-controls')).toBe(nav.id);

    toggle(nav, 'open');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Close menu' })).toBe(button));
    toggle(nav, 'closed');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Open menu' })).toBe(button));
  });

  // The browser exposes whether a popovertarget button's popover is open; an aria-expanded beside popovertarget is
  // invalid HTML (the Nu checker rejects it), whatever the menu's state.
  it('leaves the expanded state of the menu button to the popover: no aria-expanded beside popovertarget', async () => {
    const { button, nav } = renderHeader();
    expect(button.hasAttribute('aria-expanded')).toBe(false);
    toggle(nav, 'open');
    await waitFor(() => expect(button.getAttribute('aria-label')).toBe('Close menu'));
    expect(button.hasAttribute('aria-expanded')).toBe(false);
  });
});
