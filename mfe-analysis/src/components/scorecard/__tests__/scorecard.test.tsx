import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asLive, LUNA, lunaCopy, prepare, renderScorecard, withoutMockFlags } from './scorecard-kit';

// Each source once, in the owner's words (sorted as the warning lists them).
const SOURCES = [
  'Google Business Profile and local competitors (sample data: no Google Places key configured)',
  'Website checks (sample data: the website address would come from Google, and no Google Places key is configured)',
  'Yelp (sample data: no Yelp key configured)',
];

const card = (name: string) => screen.getByRole('region', { name });
const tile = (factor: string) => screen.getByRole('button', { name: new RegExp(`^${factor} (\\d|No Data)`) });

// A large tree driven by user-event on a shared 2-core machine: allow more than the default 5 s per test.
vi.setConfig({ testTimeout: 20_000 });

describe('Scorecard: a real simulated answer', () => {
  beforeEach(() => prepare());

  it('shows the header: business name, type, location and analysis date', () => {
    renderScorecard({ result: LUNA });
    expect(screen.getByRole('heading', { level: 2, name: 'Luna Pizza Danville' })).toBeTruthy();
    const header = screen.getByRole('banner');
    expect(within(header).getByText('Restaurant')).toBeTruthy();
    expect(within(header).getByText('Danville, CA')).toBeTruthy();
    const date = header.querySelector('time')!;
    expect(date.getAttribute('dateTime')).toBe(LUNA.analyzedAt);
    expect(date.textContent).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
  });

  it('warns about mock data and lists each distinct source once', () => {
    renderScorecard({ result: LUNA });
    const note = screen.getByRole('note');
    expect(within(note).getByText('Mock Data Detected')).toBeTruthy();
    expect(within(note).getByText(`This analysis contains simulated data from: ${SOURCES.join(', ')}`)).toBeTruthy();
    expect(within(note).getByText('Real API integration is needed for accurate business insights')).toBeTruthy();
  });

  it('names the sources of a report stored with developer wording once each, in owner words', () => {
    const r = lunaCopy();
    const legacy = (v: unknown): void => {
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (o.isMockData === true && typeof o.source === 'string') {
        o.source = o.source.startsWith('Google') ? 'Simulated: GOOGLE_PLACES_API_KEY not configured' : o.source.startsWith('Yelp') ? 'Simulated: YELP_API_KEY not configured' : 'Simulated: no website to fetch because the Google profile is simulated (GOOGLE_PLACES_API_KEY not configured)';
      }
      Object.values(o).forEach(legacy);
    };
    legacy(r.scores);
    r.scores.competitiveIntelligence.evidence.details.standing.source = 'Simulated: GOOGLE_PLACES_API_KEY not configured (local competitors)';
    renderScorecard({ result: r });
    const note = screen.getByRole('note');
    expect(within(note).getByText(`This analysis contains simulated data from: ${SOURCES.join(', ')}`)).toBeTruthy();
    expect(note.textContent).not.toMatch(/API_KEY/);
  });

  it('shows no mock warning when nothing is simulated', () => {
    renderScorecard({ result: withoutMockFlags(LUNA) });
    expect(screen.queryByText('Mock Data Detected')).toBeNull();
  });

  it('shows the overall score out of 100 and the six factor scores with their labels (live data)', () => {
    renderScorecard({ result: withoutMockFlags(asLive(lunaCopy())) });
    expect(screen.getByTestId('overall-score').textContent).toBe('86/100');
    expect(screen.getByText('Based on 6 key growth factors')).toBeTruthy();
    const expected: Array<[string, number, string]> = [
      ['Visibility', 100, 'Excellent'],
      ['Reputation', 82, 'Excellent'],
      ['Profile Quality', 100, 'Excellent'],
      ['Website Trust', 69, 'Good'],
      ['Content Quality', 87, 'Excellent'],
      ['Competitive Intelligence', 88, 'Excellent'],
    ];
    for (const [name, score, label] of expected) {
      expect(screen.getByRole('button', { name: `${name} ${score} out of 100 ${label}` })).toBeTruthy();
      expect(card(name)).toBeTruthy();
    }
  });

  it('shows scores built from sample data as sample scores, never as the business\'s standing', () => {
    renderScorecard({ result: LUNA });
    // The headline: a number, but labelled and worded as a sample, in no grade colour.
    const overall = screen.getByTestId('overall-score').parentElement!;
    expect(screen.getByTestId('overall-score').textContent).toBe('86/100');
    expect(within(overall).getByText('Sample score')).toBeTruthy();
    expect(within(overall).getByText(/Built from sample data, so it is an example, not Luna Pizza Danville.s real standing\./)).toBeTruthy();
    expect(within(overall).queryByText(/Excellent|Good|Fair|Poor/)).toBeNull();
    for (const [name, score] of [['Visibility', 100], ['Profile Quality', 100], ['Website Trust', 69]] as const) {
      const t = screen.getByRole('button', { name: `${name} ${score} out of 100 Sample score` });
      expect(t.querySelector('[data-tone]')!.getAttribute('data-tone')).toBe('sample');
      const c = card(name);
      expect(within(c).getByText('Sample score')).toBeTruthy();
      expect(within(c).getByText(/^Sample score: built from sample data/)).toBeTruthy();
      expect(within(c).queryByText('Excellent')).toBeNull();
    }
    // The Google profile 'found' in sample data is no green tick.
    expect(within(card('Visibility')).getByRole('button', { name: 'Found (sample data) Evidence for Google Business Profile' })).toBeTruthy();
    expect(within(screen.getByRole('banner')).getByText('Sample data')).toBeTruthy();
  });

  it('shows a factor that could not be measured as "Not measured": no number, no bar, and the overall says on how many it is based', () => {
    const r = withoutMockFlags(asLive(lunaCopy()));
    for (const key of ['websiteTrust', 'contentQuality']) {
      r.scores[key] = { ...r.scores[key], score: 0, label: 'Not measured', verified: false, insights: ['⚠️ Website not measured: the website could not be reached (its address was not found)'] };
    }
    r.scores.overall.factorsMeasured = 4;
    renderScorecard({ result: r });
    for (const name of ['Website Trust', 'Content Quality']) {
      const t = screen.getByRole('button', { name: `${name} Not measured` });
      expect(t.textContent).not.toMatch(/\d/);
      expect(t.querySelector('[aria-hidden="true"] > span[style]')).toBeNull();
      expect(within(card(name)).queryByText('/100')).toBeNull();
      expect(within(card(name)).getByText('Website not measured: the website could not be reached (its address was not found)')).toBeTruthy();
    }
    expect(screen.getByText('Based on 4 of 6 key growth factors')).toBeTruthy();
  });

  it('gives no overall grade when fewer than half of the factors were measured', () => {
    const r = withoutMockFlags(asLive(lunaCopy()));
    for (const key of ['visibility', 'reputation', 'profileQuality', 'websiteTrust']) r.scores[key] = { ...r.scores[key], score: 0, label: 'Not measured', verified: false };
    // An older stored report still carries a graded overall score: two factors are not enough for one.
    r.scores.overall = { ...r.scores.overall, score: 88, label: 'Excellent', verified: true };
    renderScorecard({ result: r });
    const overall = screen.getByTestId('overall-score').parentElement!;
    expect(screen.getByTestId('overall-score').textContent).toBe('No overall score');
    expect(within(overall).getByText('Not enough data')).toBeTruthy();
    expect(within(overall).getByText('Only 2 of 6 factors could be measured; an overall grade needs at least 3.')).toBeTruthy();
    expect(overall.textContent).not.toMatch(/88|Excellent/);
  });

  it('colours scores at 80 / 60 / 40: green, yellow, orange, red', () => {
    const r = withoutMockFlags(asLive(lunaCopy()));
    r.scores.visibility.score = 80;
    r.scores.reputation.score = 79;
    r.scores.profileQuality.score = 60;
    r.scores.websiteTrust.score = 59;
    r.scores.contentQuality.score = 40;
    r.scores.competitiveIntelligence.score = 39;
    renderScorecard({ result: r });
    const tone = (name: string) => tile(name).querySelector('[data-tone]')!.getAttribute('data-tone');
    expect(['Visibility', 'Reputation', 'Profile Quality', 'Website Trust', 'Content Quality', 'Competitive Intelligence'].map(tone)).toEqual([
      'green',
      'yellow',
      'yellow',
      'orange',
      'orange',
      'red',
    ]);
  });

  it('shows the AI Readiness card, the action plan and the roadmap card', () => {
    renderScorecard({ result: LUNA });
    const ai = card('AI Readiness');
    expect(within(ai).getByText('71')).toBeTruthy();
    expect(within(ai).getByText('$2,576')).toBeTruthy();
    expect(within(ai).getByRole('button', { name: 'View Full AI Report' })).toBeTruthy();
    const plan = card('Action Plan and Recommendations');
    expect(within(plan).getAllByRole('heading', { level: 4 }).map((h) => h.textContent)).toEqual((LUNA.recommendations as Array<{ title: string }>).map((r) => r.title));
    const roadmap = card('AI Implementation Roadmap');
    expect(within(roadmap).getByText('Phase 1: Foundation and quick wins')).toBeTruthy();
    expect(within(roadmap).getByRole('button', { name: 'View Implementation Guide' })).toBeTruthy();
  });

  it('shows insights with their markers named for screen readers', () => {
    renderScorecard({ result: LUNA });
    const rep = card('Reputation');
    expect(within(rep).getByText('Google rating 4.6★ (sample data)').parentElement!.textContent).toBe('\u2713Good: Google rating 4.6★ (sample data)');
    expect(within(rep).getByText('Yelp rating 3.5★ (sample data)').parentElement!.textContent).toBe('\u2715Problem: Yelp rating 3.5★ (sample data)');
  });

  it('shows the performance and security panels only when their score is above 0', () => {
    const r = lunaCopy();
    renderScorecard({ result: r });
    let trust = card('Website Trust');
    // Measured on a sample website: the grade says so.
    expect(within(trust).getByText('90/100 · Grade A · sample data')).toBeTruthy();
    expect(within(trust).getByText('55/100 · Grade F · sample data')).toBeTruthy();

    const r2 = lunaCopy();
    r2.scores.websiteTrust.evidence.performance = { score: 0, grade: 'N/A', source: 'Not measured: no website analyzed' };
    r2.scores.websiteTrust.evidence.security = { score: 0, grade: 'N/A', source: 'Not measured: no website analyzed' };
    renderScorecard({ result: r2 });
    trust = screen.getAllByRole('region', { name: 'Website Trust' })[1]!;
    expect(within(trust).queryByRole('heading', { name: 'Performance' })).toBeNull();
    expect(within(trust).queryByRole('heading', { name: 'Security' })).toBeNull();
  });

  it('lists at most 5 technologies', () => {
    const r = lunaCopy();
    r.scores.websiteTrust.evidence.technologies = ['WordPress', 'Cloudflare', 'Stripe', 'Toast', 'Google Tag Manager', 'Shopify', 'OpenTable'].map((name) => ({ name }));
    renderScorecard({ result: r });
    const list = within(card('Website Trust')).getByRole('list', { name: 'Technologies detected' });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['WordPress', 'Cloudflare', 'Stripe', 'Toast', 'Google Tag Manager']);
  });
});

describe('Scorecard: missing parts', () => {
  let warn: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    prepare();
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it('defaults an empty answer per spec: Unknown Business, General Business, Unknown Location, No Data in grey (no 0 that reads as failing)', () => {
    renderScorecard({ result: {} });
    expect(screen.getByRole('heading', { level: 2, name: 'Unknown Business' })).toBeTruthy();
    const header = screen.getByRole('banner');
    expect(within(header).getByText('General Business')).toBeTruthy();
    expect(within(header).getByText('Unknown Location')).toBeTruthy();
    expect(screen.getByTestId('overall-score').textContent).toBe('No overall score');
    for (const name of ['Visibility', 'Reputation', 'Profile Quality', 'Website Trust', 'Content Quality', 'Competitive Intelligence']) {
      expect(screen.getByRole('button', { name: `${name} No Data` })).toBeTruthy();
      expect(tile(name).querySelector('[data-tone]')!.getAttribute('data-tone')).toBe('grey');
    }
    // Each missing score is logged.
    expect(warn).toHaveBeenCalledTimes(7);
    expect(String(warn.mock.calls[0]![0])).toMatch(/"visibility" is missing/);
    expect(screen.getByText('0 of 100 points from verified data')).toBeTruthy();
    expect(screen.queryByText('Mock Data Detected')).toBeNull();
  });

  it('says which parts are not available', () => {
    renderScorecard({ result: {} });
    expect(within(card('Content Quality')).getByText('Content analysis data not available')).toBeTruthy();
    expect(within(card('Competitive Intelligence')).getByText('Competitive intelligence data not available')).toBeTruthy();
    expect(within(card('AI Readiness')).getByText('Analyzing automation signals...')).toBeTruthy();
    expect(within(card('AI Implementation Roadmap')).getByText('Generating detailed recommendations...')).toBeTruthy();
    expect(within(card('Action Plan and Recommendations')).getByText(/No recommendations/)).toBeTruthy();
  });

  it('keeps the rest of the answer when only the AI parts are missing', () => {
    const r = lunaCopy();
    r.aiAssessment.automationSignals = [];
    delete r.aiAssessment.detailedRecommendations;
    renderScorecard({ result: r });
    const panels = card('AI Automation Details');
    expect(within(panels).getByText('Analyzing automation signals...')).toBeTruthy();
    expect(within(panels).getByText('Generating detailed recommendations...')).toBeTruthy();
    expect(within(card('AI Readiness')).getByText('71')).toBeTruthy();
    expect(warn).not.toHaveBeenCalled();
  });

  it('shows content data as unavailable when the factor has no data, with the reason', () => {
    const r = lunaCopy();
    r.scores.contentQuality = { ...r.scores.contentQuality, score: 0, label: 'No Data', verified: false, insights: ['⚠️ No website known to analyze (no Google profile to take it from)'] };
    renderScorecard({ result: r });
    const content = card('Content Quality');
    expect(within(content).getByText('Content analysis data not available')).toBeTruthy();
    expect(within(content).getByText('No website known to analyze (no Google profile to take it from)')).toBeTruthy();
  });
});
