import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Scorecard } from '../scorecard';
import { asLive, LUNA, lunaCopy, prepare, renderScorecard, withoutMockFlags, type SentEvent } from './scorecard-kit';

const card = (name: string) => screen.getByRole('region', { name });
const evidenceButton = (factor: string) => within(card(factor)).getByRole('button', { name: new RegExp(`evidence behind this score .* for ${factor}$`) });

// A large tree driven by user-event on a shared 2-core machine: allow more than the default 5 s per test.
vi.setConfig({ testTimeout: 20_000 });

describe('Evidence per point', () => {
  beforeEach(() => prepare());

  it('expands a factor card to the signals behind its score: points, value, source and a verification link', async () => {
    const { user } = renderScorecard({ result: LUNA });
    const button = evidenceButton('Reputation');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    const region = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(region.classList.contains('hidden')).toBe(true);
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(region.classList.contains('hidden')).toBe(false);
    const rows = within(region).getAllByRole('listitem');
    expect(rows).toHaveLength(4);
    const google = rows[0]!;
    expect(within(google).getByText('Google rating')).toBeTruthy();
    expect(within(google).getByText('6.2 of 7 points')).toBeTruthy();
    expect(within(google).getByText('4.6 stars')).toBeTruthy();
    expect(within(google).getByText('Google Business Profile and local competitors (sample data: no Google Places key configured)')).toBeTruthy();
    expect(within(google).getByText('Sample data')).toBeTruthy();
    expect(within(google).getByText('Google star rating, 3.0 = 0 to 4.8+ = full')).toBeTruthy();
    expect(within(google).getByRole('link', { name: /Verify on google\.com/ }).getAttribute('href')).toMatch(/^https:\/\/www\.google\.com\/maps\/search\//);
    expect(within(region).getByText(/^16\.3 of 20 counted points earned\. Signals that could not be verified are left out of the score\. Points marked sample data/)).toBeTruthy();
  });

  it('names live sources and says when a signal is not counted', async () => {
    const r = withoutMockFlags(lunaCopy());
    r.scores.visibility.evidence.signals = [
      { key: 'googleProfile', label: 'Google Business Profile', measures: 'A profile is found', status: 'verified', points: 8, maxPoints: 8, valueText: 'Profile found', source: 'Google Places API', verificationUrl: 'https://maps.google.com/?cid=1' },
      { key: 'socialLinks', label: 'Social profiles linked', measures: 'Links to social profiles', status: 'unverified', points: 0, maxPoints: 3, valueText: 'Not verified: no website', source: 'No website known', verificationUrl: null },
      { key: 'https', label: 'HTTPS', measures: 'https', status: 'verified', points: 6, maxPoints: 6, valueText: 'Served over HTTPS', source: 'Our fetch of https://luna.example/', verificationUrl: 'https://luna.example/' },
    ];
    const { user } = renderScorecard({ result: r });
    await user.click(evidenceButton('Visibility'));
    const region = within(card('Visibility')).getByRole('list', { name: 'Evidence behind the Visibility score' });
    expect(within(region).getByText('Google Places API')).toBeTruthy();
    expect(within(region).getByText('Our fetch of https://luna.example/')).toBeTruthy();
    expect(within(region).getByText('Not counted (worth 3 points)')).toBeTruthy();
    expect(within(region).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['https://maps.google.com/?cid=1', 'https://luna.example/']);
  });

  it('reads the detail entries of a report stored before signals existed', async () => {
    const r = lunaCopy();
    delete r.scores.profileQuality.evidence.signals;
    const { user } = renderScorecard({ result: r });
    await user.click(evidenceButton('Profile Quality'));
    const list = within(card('Profile Quality')).getByRole('list', { name: 'Evidence behind the Profile Quality score' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(5);
    expect(within(list).getByText('(925) 555-0189')).toBeTruthy();
  });
});

describe('Local standing in words', () => {
  beforeEach(() => prepare());

  it('says where the business stands among same-type businesses in its town', () => {
    renderScorecard({ result: withoutMockFlags(asLive(lunaCopy())) });
    const c = card('Competitive Intelligence');
    const highlight = within(c).getByRole('heading', { name: 'Local standing' }).parentElement!;
    expect(within(highlight).getByText('Rating higher than 100% of 8 restaurants in Danville')).toBeTruthy();
    expect(within(highlight).getByText('More reviews than 75% of them (median 237, yours 338)')).toBeTruthy();
    expect(highlight.textContent).not.toMatch(/sample data/i);
  });

  it('marks a standing computed from simulated competitors as sample data, highlight and lines alike', () => {
    renderScorecard({ result: LUNA });
    const c = card('Competitive Intelligence');
    const highlight = within(c).getByRole('heading', { name: 'Local standing Sample data' }).parentElement!;
    expect(within(highlight).getByText('Rating higher than 100% of 8 restaurants in Danville (sample data)')).toBeTruthy();
    expect(within(highlight).getByText('More reviews than 75% of them (median 237, yours 338) (sample data)')).toBeTruthy();
    // Every line under it says so too.
    expect(within(c).getAllByRole('listitem').filter((li) => /: (?:Rating higher|More reviews) than/.test(li.textContent ?? ''))).toHaveLength(2);
    for (const line of within(c).getAllByRole('listitem').filter((li) => /: (?:Rating higher|More reviews) than/.test(li.textContent ?? ''))) expect(line.textContent).toMatch(/\(sample data\)$/);
  });

  it('uses the percentile, count and business type of the data', () => {
    const r = lunaCopy();
    Object.assign(r.scores.competitiveIntelligence.evidence.details.standing, { ratingPercentile: 62, competitorCount: 18, businessType: 'Retail', location: 'Walnut Creek, CA' });
    renderScorecard({ result: r });
    expect(screen.getByText('Rating higher than 62% of 18 retail stores in Walnut Creek (sample data)')).toBeTruthy();
  });

  it('says why the standing is missing without a location', () => {
    const r = lunaCopy();
    r.businessInfo.location = 'Unknown Location';
    r.scores.competitiveIntelligence = {
      ...r.scores.competitiveIntelligence,
      score: 0,
      label: 'No Data',
      verified: false,
      insights: ['⚠️ Competitive insights not included: no location selected'],
    };
    r.scores.competitiveIntelligence.evidence.details = {
      standing: { location: null, businessType: 'Restaurant', competitorCount: null, ratingPercentile: null, reviewPercentile: null, rating: 4.6, reviewCount: 338, medianReviews: null, reason: 'No location was selected, so there are no local competitors to compare with.' },
    };
    renderScorecard({ result: r });
    const c = card('Competitive Intelligence');
    expect(within(c).getByText('Competitive intelligence data not available')).toBeTruthy();
    expect(within(c).getByText('No location was selected, so there are no local competitors to compare with.')).toBeTruthy();
    expect(within(c).queryByText(/^Rating higher than \d+% of \d+/)).toBeNull();
  });
});

it('gives the reason without calling counted data unavailable when the business is not on Google', () => {
  prepare();
  const r = lunaCopy();
  Object.assign(r.scores.competitiveIntelligence, { score: 0, label: 'Poor', verified: true, insights: ['❌ Not on Google, so invisible next to 8 local competitors (simulated)'] });
  Object.assign(r.scores.competitiveIntelligence.evidence.details.standing, {
    ratingPercentile: null,
    reviewPercentile: null,
    reason: 'The business was not found on Google, so it has no rating to compare with 8 local competitors.',
  });
  renderScorecard({ result: r });
  const c = card('Competitive Intelligence');
  expect(within(c).getByText('The business was not found on Google, so it has no rating to compare with 8 local competitors.')).toBeTruthy();
  expect(within(c).queryByText('Competitive intelligence data not available')).toBeNull();
});

describe('What changed since the previous report', () => {
  beforeEach(() => prepare());

  it('shows per factor the change since the previous report, with its date', () => {
    const r = withoutMockFlags(asLive(lunaCopy()));
    r.previous = {
      id: 'prevReport01',
      analyzedAt: '2026-11-20T10:00:00.000Z',
      scores: { overall: 82, visibility: 100, reputation: 84, profileQuality: 96, websiteTrust: 69, contentQuality: 87, competitiveIntelligence: 90 },
    };
    renderScorecard({ result: r });
    expect(screen.getByText(/Changes since your previous report of/).textContent).toBe('Changes since your previous report of November 20, 2026');
    const tile = (f: string) => screen.getByRole('button', { name: new RegExp(`^${f} `) });
    expect(screen.getByRole('button', { name: 'Visibility no change since the previous report 100 out of 100 Excellent' })).toBeTruthy();
    expect(within(tile('Reputation')).getByText('\u22122')).toBeTruthy();
    expect(within(tile('Profile Quality')).getByText('+4')).toBeTruthy();
    expect(within(tile('Visibility')).getByText('no change')).toBeTruthy();
    expect(within(screen.getByTestId('overall-score').parentElement!).getByText('+4')).toBeTruthy();
    expect(within(card('Reputation')).getByText('down 2 points since the previous report')).toBeTruthy();
  });

  it('shows no change between sample scores or against an unmeasured earlier score', () => {
    const sample = lunaCopy();
    sample.previous = { id: 'prevReport01', analyzedAt: '2026-11-20T10:00:00.000Z', scores: { overall: 82, visibility: 90, reputation: 84, profileQuality: 96, websiteTrust: 69, contentQuality: 87, competitiveIntelligence: 90 } };
    renderScorecard({ result: sample });
    expect(screen.queryByText(/since the previous report/)).toBeNull();

    const live = withoutMockFlags(asLive(lunaCopy()));
    live.previous = { id: 'prevReport01', analyzedAt: '2026-11-20T10:00:00.000Z', scores: { overall: null, visibility: null, reputation: 84, profileQuality: null, websiteTrust: null, contentQuality: null, competitiveIntelligence: null } };
    renderScorecard({ result: live });
    expect(screen.getAllByText(/since the previous report$/).map((e) => e.textContent)).toEqual(['down 2 points since the previous report', 'down 2 points since the previous report']);
  });

  it('shows no change chips without a previous report', () => {
    renderScorecard({ result: LUNA });
    expect(screen.queryByText(/since the previous report/)).toBeNull();
    expect(screen.queryByText(/Changes since your previous report/)).toBeNull();
  });
});

describe('Scorecard tracking', () => {
  let observed: Array<(entries: Array<{ isIntersecting: boolean }>) => void> = [];
  beforeEach(() => {
    observed = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(cb: (entries: Array<{ isIntersecting: boolean }>) => void) {
          observed.push(cb);
        }
        observe() {}
        disconnect() {}
      },
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const names = (events: SentEvent[]) => events.map((e) => e.name);

  it('records scorecard displayed, scorecard clicks, recommendations view and recommendation click', async () => {
    const { events } = prepare();
    const { user, rerender } = renderScorecard({ result: LUNA });
    await waitFor(() => expect(names(events)).toContain('scorecard_displayed'));
    expect(events.find((e) => e.name === 'scorecard_displayed')!.props).toMatchObject({ reportId: LUNA.id, businessType: 'Restaurant', overallScore: 86, simulated: true });

    await user.click(screen.getByRole('button', { name: /^Website Trust \d/ }));
    await user.click(evidenceButton('Reputation'));
    await waitFor(() => expect(events.filter((e) => e.name === 'scorecard_click').map((e) => e.props)).toEqual([
      { target: 'factor', factor: 'websiteTrust' },
      { target: 'evidence', factor: 'reputation', open: true },
    ]));

    observed.forEach((cb) => cb([{ isIntersecting: true }]));
    observed.forEach((cb) => cb([{ isIntersecting: true }]));
    const plan = card('Action Plan and Recommendations');
    await user.click(within(plan).getAllByRole('button', { name: /^Show the steps/ })[0]!);
    await waitFor(() => expect(names(events)).toContain('recommendation_click'));
    expect(events.filter((e) => e.name === 'recommendations_view')).toHaveLength(1);
    expect(events.find((e) => e.name === 'recommendation_click')!.props).toMatchObject({ title: 'Answer common questions 24/7 with an AI assistant', priority: 'Medium' });

    // The same result again is not a second display.
    rerender(
      <MemoryRouter>
        <Scorecard result={LUNA} />
      </MemoryRouter>,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(names(events).filter((n) => n === 'scorecard_displayed')).toHaveLength(1);
  });
});
