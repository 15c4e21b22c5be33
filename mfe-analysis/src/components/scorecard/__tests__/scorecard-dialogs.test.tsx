import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LUNA, prepare, renderScorecard } from './scorecard-kit';

/** The panel's content: Radix names it in aria-controls only while open, so find it beside the trigger's heading. */
const panelOf = (trigger: HTMLElement) => trigger.closest('h4')!.nextElementSibling as HTMLElement;

const PANELS = ['Top Automation Opportunities', 'Implementation Roadmap', 'Business Type Analysis', 'Automation Signals', 'Detailed AI Recommendations'];

/** The dialog and popover code loads on first use: allow for a slow first import on a busy machine. */
const LAZY = { timeout: 5000 };

// A large tree driven by user-event on a shared 2-core machine: allow more than the default 5 s per test.
vi.setConfig({ testTimeout: 20_000 });

describe('Scorecard modals', () => {
  beforeEach(() => prepare());

  it("opens 'AI Automation Assessment Report' from 'View Full AI Report', traps focus, closes on Escape and returns focus", async () => {
    const { user } = renderScorecard({ result: LUNA });
    const opener = screen.getByRole('button', { name: 'View Full AI Report' });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'AI Automation Assessment Report' }, LAZY);
    // The body is lazy-loaded.
    // Figures derived from sample data carry the marker in the modal too.
    expect(await within(dialog).findByRole('heading', { name: 'Where the savings come from Sample data' }, LAZY)).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: 'Summary for Luna Pizza Danville Sample data' })).toBeTruthy();
    expect(within(dialog).getByText('Phone orders, menu and hours questions', { selector: 'span' })).toBeTruthy();
    expect(dialog.contains(document.activeElement)).toBe(true);
    for (let i = 0; i < 8; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Focus is back on the button that opened it (the same visible button, now the dialog's trigger).
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'View Full AI Report' }));
  });

  it("opens 'AI Implementation Guide' from its button and closes with Close", async () => {
    const { user } = renderScorecard({ result: LUNA });
    const opener = screen.getByRole('button', { name: 'View Implementation Guide' });
    await user.click(opener);
    const dialog = await screen.findByRole('dialog', { name: 'AI Implementation Guide' }, LAZY);
    expect(await within(dialog).findByRole('heading', { name: 'Step by step' }, LAZY)).toBeTruthy();
    expect(within(dialog).getByText('Phase 2: Core automation')).toBeTruthy();
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'View Implementation Guide' }));
  });

  it('starts with both modals closed', () => {
    renderScorecard({ result: LUNA });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Scorecard collapsible panels', () => {
  beforeEach(() => prepare());

  it('has the five panels, closed at first, toggled on click', async () => {
    const { user } = renderScorecard({ result: LUNA });
    const triggers = PANELS.map((name) => screen.getByRole('button', { name }));
    for (const t of triggers) {
      expect(t.getAttribute('aria-expanded')).toBe('false');
      const content = panelOf(t);
      expect(content.getAttribute('data-state')).toBe('closed');
      // Kept in the page for print (data-print-expand), hidden on screen by the closed state.
      expect(content.hasAttribute('data-print-expand')).toBe(true);
      expect(content.className).toMatch(/data-\[state=closed\]:hidden/);
    }
    await user.click(triggers[3]!);
    expect(triggers[3]!.getAttribute('aria-expanded')).toBe('true');
    expect(panelOf(triggers[3]!).getAttribute('data-state')).toBe('open');
    await user.click(triggers[3]!);
    expect(triggers[3]!.getAttribute('aria-expanded')).toBe('false');
  });

  it('colours signal strength: 8 or more green, 5 or more yellow, below red', () => {
    renderScorecard({ result: LUNA });
    const t = screen.getByRole('button', { name: 'Automation Signals' });
    const content = panelOf(t);
    const tones = [...content.querySelectorAll('[data-tone]')].map((b) => `${b.textContent} ${b.getAttribute('data-tone')}`);
    expect(tones).toEqual(['10/10 green', '4/10 red', '5/10 yellow', '0/10 red', '8/10 green', '7/10 yellow']);
  });
});
