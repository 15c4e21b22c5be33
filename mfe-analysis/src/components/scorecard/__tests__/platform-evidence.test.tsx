import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { lunaCopy, prepare, renderScorecard, LUNA } from './scorecard-kit';

const visibility = () => screen.getByRole('region', { name: 'Visibility' });
const trigger = (platform: string) => within(visibility()).getByRole('button', { name: new RegExp(`Evidence for ${platform}$`) });
const stateOf = (platform: string) => trigger(platform).textContent!.replace(/[✓✕?!~]/g, '').replace(/Evidence.*$/, '').trim();

/** The dialog and popover code loads on first use: allow for a slow first import on a busy machine. */
const LAZY = { timeout: 5000 };

// A large tree driven by user-event on a shared 2-core machine: allow more than the default 5 s per test.
vi.setConfig({ testTimeout: 20_000 });

describe('Platform evidence tooltips', () => {
  beforeEach(() => prepare());

  it('lists Yelp and Google Business Profile as high priority, then Facebook Business, Instagram, LinkedIn', () => {
    renderScorecard({ result: LUNA });
    const items = within(visibility()).getAllByRole('listitem').filter((li) => /priority/.test(li.textContent ?? ''));
    expect(items.map((li) => li.textContent!.replace(/(Found|Not Found|Unknown|Error).*$/, '').replace(/[✓✕?!~]/g, ''))).toEqual([
      'YelpHigh priority',
      'Google Business ProfileHigh priority',
      'Facebook BusinessMedium priority',
      'InstagramMedium priority',
      'LinkedInMedium priority',
    ]);
    // Found in sample data: said so, and no green tick.
    expect(stateOf('Yelp')).toBe('Found (sample data)');
    expect(trigger('Yelp').textContent).toMatch(/^~Found \(sample data\) Evidence for Yelp$/);
    // Facebook, Instagram and LinkedIn have no keyless API: honestly unknown, never 'Not Found'.
    expect(stateOf('Facebook Business')).toBe('Unknown');
  });

  it('opens with Enter, shows the evidence and closes with its Close button', async () => {
    const { user } = renderScorecard({ result: LUNA });
    trigger('Google Business Profile').focus();
    await user.keyboard('{Enter}');
    const pop = await screen.findByRole('dialog', { name: 'Google Business Profile evidence' }, LAZY);
    expect(within(pop).getByText('Found (sample data)')).toBeTruthy();
    expect(within(pop).getByText('Search term').nextElementSibling!.textContent).toBe('Luna Pizza Danville Danville, CA');
    expect(within(pop).getByText('Data source').nextElementSibling!.textContent).toBe('Sample data (no Google Places key configured)');
    expect(within(pop).getByText('API endpoint').nextElementSibling!.textContent).toBe('none (sample data)');
    expect(within(pop).getByText('Google Business Profile and local competitors (sample data: no Google Places key configured)')).toBeTruthy();
    expect(within(pop).getByText('Last checked').nextElementSibling!.textContent).toMatch(/2026/);
    const link = within(pop).getByRole('link', { name: /Search Google Maps/ });
    expect(link.getAttribute('href')).toMatch(/^https:\/\/www\.google\.com\/maps\/search\//);
    expect(link.getAttribute('target')).toBe('_blank');
    await user.click(within(pop).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Google Business Profile evidence' })).toBeNull());
  });

  it('opens with Space and with a click; Escape closes', async () => {
    const { user } = renderScorecard({ result: LUNA });
    trigger('Yelp').focus();
    await user.keyboard(' ');
    expect(await screen.findByRole('dialog', { name: 'Yelp evidence' }, LAZY)).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Yelp evidence' })).toBeNull());
    // Focus is back on the platform's button, and it opens again.
    expect(document.activeElement).toBe(trigger('Yelp'));
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Yelp evidence' }, LAZY)).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Yelp evidence' })).toBeNull());
    await user.click(trigger('LinkedIn'));
    const pop = await screen.findByRole('dialog', { name: 'LinkedIn evidence' }, LAZY);
    expect(within(pop).getByText('Unknown')).toBeTruthy();
    expect(within(pop).getByText(/cannot be checked automatically/)).toBeTruthy();
  });

  it('shows Error with the message, Not Found, an invalid date as Unknown and no links', async () => {
    const r = lunaCopy();
    const checks = r.scores.visibility.evidence.details.evidence.platformChecks;
    checks.yelp = { ...checks.yelp, status: 'error', found: null, error: 'Yelp did not answer within 8 s', lastChecked: 'not a date', verificationLinks: [] };
    checks.googleBusinessProfile = { ...checks.googleBusinessProfile, status: 'not_found', found: false };
    const { user } = renderScorecard({ result: r });
    expect(stateOf('Yelp')).toBe('Error');
    expect(stateOf('Google Business Profile')).toBe('Not Found (sample data)');
    await user.click(trigger('Yelp'));
    const pop = await screen.findByRole('dialog', { name: 'Yelp evidence' }, LAZY);
    expect(within(pop).getByText('Error: Yelp did not answer within 8 s')).toBeTruthy();
    expect(within(pop).getByText('Last checked').nextElementSibling!.textContent).toBe('Unknown');
    expect(within(pop).getByText('No verification links available')).toBeTruthy();
  });

  it('treats a platform missing from the evidence as Unknown without crashing', async () => {
    const r = lunaCopy();
    delete r.scores.visibility.evidence.details.evidence.platformChecks.instagram;
    const { user } = renderScorecard({ result: r });
    await user.click(trigger('Instagram'));
    const pop = await screen.findByRole('dialog', { name: 'Instagram evidence' }, LAZY);
    expect(within(pop).getByText('Last checked').nextElementSibling!.textContent).toBe('Unknown');
    expect(within(pop).getByText('No verification links available')).toBeTruthy();
  });
});
