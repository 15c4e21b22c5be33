import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LUNA, lunaCopy, prepare, renderScorecard } from './scorecard-kit';

/* What a reader of the AI Readiness card reads adds up (issue 54, item 4). */

const card = (name: string) => screen.getByRole('region', { name });
/** The dollar figures of a text, in order: "$2,576 … $530" → [2576, 530]. */
const dollars = (text: string | null | undefined) => [...(text ?? '').matchAll(/\$([\d,]+)/g)].map((m) => Number(m[1]!.replaceAll(',', '')));
const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);

vi.setConfig({ testTimeout: 20_000 });

describe('AI Readiness card: the monthly figure and the opportunities under it', () => {
  beforeEach(() => prepare());

  it('says what the difference between its figure and the listed opportunities is, in amounts that add up', () => {
    const { unmount } = renderScorecard({ result: LUNA });
    const ai = card('AI Readiness');
    const [figure] = dollars(within(ai).getByText(/potential savings per month/).closest('p')?.textContent);
    const listed = within(ai)
      .getAllByRole('listitem')
      .map((li) => dollars(li.textContent)[0]!);
    expect(figure).toBe(2576);
    expect(sum(listed)).toBe(2046);
    const line = within(ai).getByText(/^Of the \$/);
    expect(line.textContent).toBe('Of the $2,576: $2,046 from the 3 opportunities below, $530 from 2 more tasks in the full AI report.');
    const [total, fromListed, rest] = dollars(line.textContent);
    expect(total).toBe(figure);
    expect(fromListed).toBe(sum(listed));
    expect(fromListed! + rest!).toBe(figure);
    unmount();

    // When the listed opportunities are the whole figure, there is nothing more to say.
    const r = lunaCopy();
    const shown = new Set(['Phone orders, menu and hours questions', 'Inventory counts and sales reporting', 'Reservations and table management']);
    for (const b of r.aiAssessment.savingsBreakdown) if (!shown.has(b.task)) b.monthlySavings = 0;
    r.aiAssessment.totalPotentialSavings = 2046;
    renderScorecard({ result: r });
    const whole = card('AI Readiness');
    expect(within(whole).queryByText(/^Of the \$/)).toBeNull();
    expect(dollars(within(whole).getByText(/potential savings per month/).closest('p')?.textContent)).toEqual([2046]);
  });
});
