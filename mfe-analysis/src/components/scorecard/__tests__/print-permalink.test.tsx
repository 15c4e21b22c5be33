import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { siteOrigin } from '@site/ui';
import { LUNA, lunaCopy, prepare, renderScorecard } from './scorecard-kit';

/* A printed scorecard (or a PDF saved from it) leads back to the live report (issue 54, item 4). */

vi.setConfig({ testTimeout: 20_000 });

describe('the printout carries the report permalink', () => {
  beforeEach(() => prepare());

  it("shows the report's permanent address, in print only, inside the report", () => {
    const { unmount } = renderScorecard({ result: LUNA });
    const report = screen.getByRole('article', { name: 'Scorecard for Luna Pizza Danville' });
    const line = within(report).getByText(/^Permanent link to this report:/);
    expect(line.textContent).toBe(`Permanent link to this report: ${siteOrigin()}/free-analysis/report/${LUNA.id as string}`);
    // Hidden on screen (the report actions show it there, with Copy link), a block on paper.
    expect(line.className.split(' ')).toEqual(expect.arrayContaining(['hidden', 'print:block']));
    unmount();

    // A result without an id has no page to link to.
    const r = lunaCopy();
    delete r.id;
    renderScorecard({ result: r });
    expect(screen.queryByText(/^Permanent link to this report:/)).toBeNull();
  });
});
