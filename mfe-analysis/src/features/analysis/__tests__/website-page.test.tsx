import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AnalysisPage } from '../components/analysis-page';
import { analysisApi, ANSWER, prepare, renderAt } from './test-kit';

beforeEach(() => {
  prepare();
});

describe('/website-analysis', () => {
  it('shows the hero with the three stats and the why-analyze section (performance, SEO, security)', () => {
    renderAt('/website-analysis', <AnalysisPage variant="website" />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Free Website & Business Analysis');
    const stats = Object.fromEntries(
      [...document.querySelectorAll('dl > div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]),
    );
    // The spec's three stats, the third made true: an analysis takes seconds, not 30-60 of them.
    expect(stats).toEqual({ 'Websites analyzed': '100+', 'Potential savings found': '$10K', 'Analysis time, usually a few seconds': 'Under 30s' });
    expect(document.body.textContent).not.toContain('30s-60s');
    const why = screen.getByRole('region', { name: 'Why Analyze Your Website?' });
    expect(within(why).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Performance', 'SEO', 'Security']);
  });

  it("'Start Free Analysis' scrolls to #analysis-tool and puts the keyboard in its first field", async () => {
    const scrolled: Element[] = [];
    const spy = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    const { user } = renderAt('/website-analysis', <AnalysisPage variant="website" />);
    await user.click(screen.getByRole('button', { name: 'Start Free Analysis' }));
    expect(scrolled[0]?.id).toBe('analysis-tool');
    expect(document.activeElement).toBe(screen.getByLabelText('Business name'));
    spy.mockRestore();
  });

  it('offers the website mode; it posts { url with https://, mode: website, location }', async () => {
    const sent = analysisApi('/api/analyze-website', () => HttpResponse.json({ ...ANSWER, mode: 'website' }));
    const { user } = renderAt('/website-analysis', <AnalysisPage variant="website" />);
    expect((screen.getByRole('radio', { name: /SMB Scorecard/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('radio', { name: /Website Analysis/ }));
    expect(screen.queryByLabelText('Business name')).toBeNull();
    const url = screen.getByLabelText('Website address');
    const analyze = screen.getByRole('button', { name: 'Analyze' }) as HTMLButtonElement;
    expect(analyze.disabled).toBe(true);
    await user.type(url, 'www.bluedoor.example');
    await user.selectOptions(screen.getByLabelText('Location'), 'Walnut Creek, CA');
    await user.click(analyze);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ url: 'https://www.bluedoor.example', mode: 'website', location: 'Walnut Creek, CA' });
    expect(await screen.findByRole('button', { name: 'Copy link' }, { timeout: 4000 })).toBeTruthy();
  });

  it('website mode without a location leaves it out; a bad address is refused before sending', async () => {
    const sent = analysisApi('/api/analyze-website', () => HttpResponse.json(ANSWER));
    const { user } = renderAt('/website-analysis', <AnalysisPage variant="website" />);
    await user.click(screen.getByRole('radio', { name: /Website Analysis/ }));
    await user.type(screen.getByLabelText('Website address'), 'not a site');
    await user.click(screen.getByRole('button', { name: 'Analyze' }));
    expect(screen.getByText('A website address cannot contain spaces.')).toBeTruthy();
    expect(sent).toEqual([]);
    await user.clear(screen.getByLabelText('Website address'));
    await user.type(screen.getByLabelText('Website address'), 'https://example.org/menu');
    await user.selectOptions(screen.getByLabelText('Location'), 'No location selected');
    await user.click(screen.getByRole('button', { name: 'Analyze' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ url: 'https://example.org/menu', mode: 'website' });
  });

  it('a refused address in website mode: one friendly message, right for the mode (an address is required)', async () => {
    const body = { error: { code: 'website_refused', message: 'This website cannot be analyzed: Only ports 80 and 443 are allowed (got 8080).' } };
    analysisApi('/api/analyze-website', () => HttpResponse.json(body, { status: 400 }));
    const { user } = renderAt('/website-analysis', <AnalysisPage variant="website" />);
    await user.click(screen.getByRole('radio', { name: /Website Analysis/ }));
    await user.type(screen.getByLabelText('Website address'), 'bluedoor.example:8080');
    await user.click(screen.getByRole('button', { name: 'Analyze' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(within(alert).getByText('We cannot analyze that website address')).toBeTruthy();
    expect(
      within(alert).getByText("Only ordinary web addresses can be analyzed, without a port number such as :8080. Enter your business's public website address, such as yourbusiness.com."),
    ).toBeTruthy();
    expect(alert.textContent).not.toMatch(/leave the website empty/);
    expect(within(alert).getByText(/^Failed to analyze website: Analysis failed: 400 /).closest('details')!.open).toBe(false);
  });

  it('/free-analysis does not carry a website mode chosen on /website-analysis', async () => {
    const first = renderAt('/website-analysis', <AnalysisPage variant="website" />);
    await first.user.click(screen.getByRole('radio', { name: /Website Analysis/ }));
    first.unmount();
    renderAt('/free-analysis', <AnalysisPage variant="free" />);
    expect(screen.getByLabelText('Business name')).toBeTruthy();
    expect(screen.getAllByRole('radio')).toHaveLength(1);
  });
});
