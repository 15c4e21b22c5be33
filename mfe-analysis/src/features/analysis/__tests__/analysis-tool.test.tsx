import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnalysisPage } from '../components/analysis-page';
import { useAnalysisStore } from '../hooks/use-analysis-store';
import { analysisApi, ANSWER, prepare, renderAt, type SentEvent } from './test-kit';

const SMB = '/api/analyze-smb-business';
const valueOf = (el: HTMLElement) => (el as HTMLInputElement | HTMLSelectElement).value;
let events: SentEvent[];

const nameField = () => screen.getByLabelText('Business name');
const analyzeButton = () => screen.getByRole('button', { name: /^Analyz/ });
const locationField = () => screen.getByLabelText('Location');
const errorBox = () => screen.getByRole('alert');

beforeEach(() => {
  ({ events } = prepare());
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the tool at rest', () => {
  it('shows the SMB Scorecard as the only, active mode, the name field and Danville, CA without a note', () => {
    renderAt('/free-analysis', <AnalysisPage variant="free" />);
    const modes = screen.getAllByRole('radio');
    expect(modes).toHaveLength(1);
    expect((screen.getByRole('radio', { name: /SMB Scorecard/ }) as HTMLInputElement).checked).toBe(true);
    expect(within(screen.getByRole('group', { name: 'Analysis mode' })).getByText('Active')).toBeTruthy();
    expect(document.getElementById('analysis-tool')).not.toBeNull();
    expect(valueOf(locationField())).toBe('Danville, CA');
    expect(screen.queryByText(/Location changed to/)).toBeNull();
    expect(screen.queryByText(/competitive insights will not be included/)).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers the five towns and no location, in the spec order', () => {
    renderAt('/free-analysis', <AnalysisPage variant="free" />);
    const options = within(locationField()).getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Danville, CA', 'San Ramon, CA', 'Walnut Creek, CA', 'Pleasanton, CA', 'Dublin, CA', 'No location selected']);
  });

  it.each(['San Ramon, CA', 'Walnut Creek, CA', 'Pleasanton, CA', 'Dublin, CA'])('notes the change to %s, needed for competitive insights', async (town) => {
    const { user } = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    await user.selectOptions(locationField(), town);
    const note = screen.getByText(`Location changed to ${town}. A location is needed for competitive insights against businesses nearby.`);
    expect(locationField().getAttribute('aria-describedby')).toBe(note.id);
  });

  it('notes that without a location competitive insights are left out; back to Danville the note goes', async () => {
    const { user } = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    await user.selectOptions(locationField(), 'No location selected');
    expect(screen.getByText('No location selected: competitive insights will not be included in this analysis.')).toBeTruthy();
    await user.selectOptions(locationField(), 'Danville, CA');
    expect(screen.queryByText(/competitive insights will not be included/)).toBeNull();
  });

  it.each([
    ['Sunrise Cafe', 'Restaurant'],
    ['Happy Paws Grooming', 'Service'],
    ['Main Street Boutique', 'Retail'],
    ['Bright Smile Dental', 'Healthcare'],
    ['Acme Widgets', 'Service'],
    ['PIZZA shop', 'Restaurant'],
  ])('infers the type of %s: %s', async (name, type) => {
    const { user } = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    expect(screen.queryByText(/Detected business type/)).toBeNull();
    await user.type(nameField(), name);
    expect(screen.getByText(/Detected business type/).textContent).toBe(`Detected business type: ${type} (from the name)`);
  });
});

describe('Analyze', () => {
  it('is disabled while the name is empty (spaces count as empty); Enter on an empty name sends nothing', async () => {
    const sent = analysisApi(SMB, () => HttpResponse.json(ANSWER));
    const { user } = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    expect((analyzeButton() as HTMLButtonElement).disabled).toBe(true);
    await user.type(nameField(), '   ');
    expect((analyzeButton() as HTMLButtonElement).disabled).toBe(true);
    await user.type(nameField(), '{Enter}');
    fireEvent.submit(nameField().closest('form')!);
    await new Promise((r) => setTimeout(r, 30));
    expect(sent).toEqual([]);
    expect(screen.queryByRole('progressbar')).toBeNull();
    await user.type(nameField(), 'Sunrise Cafe');
    expect((analyzeButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it('refuses a name over the limit with a clear message and sends nothing', async () => {
    const sent = analysisApi(SMB, () => HttpResponse.json(ANSWER));
    const { user } = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    fireEvent.change(nameField(), { target: { value: 'A'.repeat(130) } });
    expect(screen.getByText('Business names can be at most 120 characters; this one has 130. Shorten it to the name customers search for.')).toBeTruthy();
    expect(nameField().getAttribute('aria-invalid')).toBe('true');
    await user.click(analyzeButton());
    expect(sent).toEqual([]);
    expect(document.activeElement).toBe(nameField());
  });

  it('refuses a malformed website before sending', async () => {
    const sent = analysisApi(SMB, () => HttpResponse.json(ANSWER));
    const { user } = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    await user.type(nameField(), 'Sunrise Cafe');
    await user.type(screen.getByLabelText(/Website/), 'my cafe dot com');
    await user.click(analyzeButton());
    expect(screen.getByText('A website address cannot contain spaces.')).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it('runs idle -> analyzing -> result: steps 0..5 every 500 ms, 6 on the answer, percent = step / 7', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false, toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const sent = analysisApi(SMB, async () => {
      await held;
      return HttpResponse.json(ANSWER);
    });
    renderAt('/free-analysis', <AnalysisPage variant="free" />);
    fireEvent.change(nameField(), { target: { value: '  Sunrise Cafe ' } });
    fireEvent.click(analyzeButton());

    const bar = screen.getByRole('progressbar', { name: 'Analysis progress' });
    expect(screen.getByText('Analysis typically takes a few seconds. You can keep this page open while we work.')).toBeTruthy();
    expect((analyzeButton() as HTMLButtonElement).disabled).toBe(true);
    expect(analyzeButton().textContent).toBe('Analyzing...');
    const states = () => screen.getAllByRole('listitem').filter((li) => li.hasAttribute('data-state')).map((li) => li.getAttribute('data-state'));
    expect(within(bar.closest('section')!).getAllByRole('listitem').map((li) => li.textContent?.replace(/(Done|In progress|Waiting)$/, '').replace(/^[\d✓]/, ''))).toEqual([
      'Google Business Profile',
      'Business listings',
      'Local keyword demand',
      'Competitor landscape',
      'Website content',
      'Website performance',
      'Scorecard generation',
    ]);
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    expect(states()).toEqual(['active', 'pending', 'pending', 'pending', 'pending', 'pending', 'pending']);

    const seen: number[] = [];
    for (let i = 1; i <= 7; i++) {
      await act(async () => void vi.advanceTimersByTime(500));
      seen.push(Number(bar.getAttribute('aria-valuenow')));
    }
    // 1/7..5/7 then it waits at step 5 for the answer.
    expect(seen).toEqual([14, 29, 43, 57, 71, 71, 71]);
    expect(states()).toEqual(['completed', 'completed', 'completed', 'completed', 'completed', 'active', 'pending']);
    expect(screen.getByText('Scorecard generation').closest('li')!.textContent).toContain('Waiting');

    vi.useRealTimers();
    await act(async () => release());
    await waitFor(() => expect(useAnalysisStore.getState().result).not.toBeNull());
    expect(useAnalysisStore.getState()).toMatchObject({ step: 6, isAnalyzing: false, error: null });
    expect(sent).toEqual([{ businessName: 'Sunrise Cafe', businessType: 'Restaurant', location: 'Danville, CA' }]);
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    expect(analyzeButton().textContent).toBe('Analyze');
    // The form keeps what was typed; the address bar is not changed behind the visitor's back.
    expect(valueOf(nameField())).toBe('  Sunrise Cafe ');
    expect(screen.getByLabelText('Current address').textContent).toBe('/free-analysis');
  });

  it('leaves location out for No location selected and sends the website with https://', async () => {
    const sent = analysisApi(SMB, () => HttpResponse.json(ANSWER));
    const { user } = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    await user.type(nameField(), 'Blue Door Salon');
    await user.type(screen.getByLabelText(/Website/), 'bluedoor.example');
    await user.selectOptions(locationField(), 'No location selected');
    await user.click(analyzeButton());
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ businessName: 'Blue Door Salon', businessType: 'Service', website: 'https://bluedoor.example' });
    expect('location' in sent[0]!).toBe(false);
  });

  it('shows the scorecard with Copy link (clipboard + toast), Print / Save as PDF and a prefilled Calculate your savings', async () => {
    analysisApi(SMB, () => HttpResponse.json(ANSWER));
    // The browser's print dialog, replaced (happy-dom has no window.print of its own).
    const print = vi.fn();
    const ownPrint = Object.getOwnPropertyDescriptor(window, 'print');
    Object.defineProperty(window, 'print', { value: print, configurable: true, writable: true });
    const { user } = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    await user.type(nameField(), 'Sunrise Cafe{Enter}');
    const copy = await screen.findByRole('button', { name: 'Copy link' }, { timeout: 4000 });
    expect(screen.getAllByText('Sunrise Cafe').length).toBeGreaterThan(0);

    await user.click(copy);
    expect(await screen.findByText('Link copied')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/free-analysis/report/${ANSWER.id}`);

    await user.click(screen.getByRole('button', { name: 'Print / Save as PDF' }));
    expect(print).toHaveBeenCalledTimes(1);

    const savings = screen.getByRole('link', { name: 'Calculate your savings' });
    expect(savings.getAttribute('href')).toBe(
      // The hours come from a scorecard built on sample data: the calculator is told, and says so.
      '/roi-calculator?customerService=16&appointmentScheduling=4&invoicingAndBilling=4&dataEntryAndReporting=6&followUpsAndReminders=3&costPerHour=25&automationEfficiency=70&from=sample-analysis',
    );
    expect(screen.getByRole('link', { name: `${window.location.origin}/free-analysis/report/${ANSWER.id}` })).toBeTruthy();
    if (ownPrint) Object.defineProperty(window, 'print', ownPrint);
    else delete (window as { print?: unknown }).print;
  });

  it('records started, completed and funnel events, and focus/blur of fields without their values', async () => {
    analysisApi(SMB, () => HttpResponse.json(ANSWER));
    const { user } = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    await user.click(nameField());
    await user.type(nameField(), 'Sunrise Cafe');
    await user.tab();
    await user.click(analyzeButton());
    await screen.findByRole('button', { name: 'Copy link' }, { timeout: 4000 });
    await waitFor(() => expect(events.map((e) => e.name)).toContain('analysis_completed'));
    const names = events.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['form_field_focus', 'form_field_blur', 'analysis_started', 'analysis_completed', 'funnel_step']));
    expect(events.find((e) => e.name === 'form_field_blur')!.props).toEqual({ form: 'analysis_smb', field: 'businessName', filled: true });
    expect(events.find((e) => e.name === 'analysis_started')!.props).toMatchObject({ mode: 'smb', location: 'Danville, CA', businessType: 'Restaurant' });
    expect(events.filter((e) => e.name === 'funnel_step').map((e) => e.props?.step)).toEqual(['form_started', 'analysis_started', 'analysis_completed']);
    expect(JSON.stringify(events)).not.toContain('Sunrise');
  });
});

describe('the error box', () => {
  const failAndShow = async (answer: () => Response) => {
    const sent = analysisApi(SMB, answer);
    const utils = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    await utils.user.type(nameField(), 'Sunrise Cafe');
    await utils.user.type(screen.getByLabelText(/Website/), 'cafe.example');
    await utils.user.selectOptions(locationField(), 'Dublin, CA');
    await utils.user.click(analyzeButton());
    await screen.findByRole('alert', {}, { timeout: 4000 });
    return { ...utils, sent };
  };
  const expectFormKept = () => {
    expect(valueOf(nameField())).toBe('Sunrise Cafe');
    expect(valueOf(screen.getByLabelText(/Website/))).toBe('cafe.example');
    expect(valueOf(locationField())).toBe('Dublin, CA');
    expect((analyzeButton() as HTMLButtonElement).disabled).toBe(false);
    expect(useAnalysisStore.getState().isAnalyzing).toBe(false);
    expect(screen.queryByRole('progressbar')).toBeNull();
  };

  it('500: the spec line with status and body, words for the visitor, Try again; events error + abandoned', async () => {
    const body = { error: { code: 'internal', message: 'Something went wrong' } };
    await failAndShow(() => HttpResponse.json(body, { status: 500 }));
    // The spec's line is in the box, folded under 'Technical details': no raw JSON after the friendly words.
    const raw = within(errorBox()).getByText(`Failed to analyze website: Analysis failed: 500 ${JSON.stringify(body)}`);
    expect(raw.closest('details')!.open).toBe(false);
    expect(within(errorBox()).getByText('Technical details').tagName).toBe('SUMMARY');
    expect(within(errorBox()).getByText('Something went wrong on our side')).toBeTruthy();
    expect(within(errorBox()).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(errorBox().className).toMatch(/bg-red-50/);
    expectFormKept();
    await waitFor(() => expect(events.map((e) => e.name)).toContain('analysis_error'));
    expect(events.find((e) => e.name === 'analysis_error')!.props).toMatchObject({ status: 500 });
    expect(events.some((e) => e.name === 'funnel_step' && e.props?.step === 'abandoned')).toBe(true);
  });

  it('400 website_refused: the server reason in plain words, no Try again (the address must change)', async () => {
    const body = { error: { code: 'website_refused', message: 'This website cannot be analyzed: The website address cafe.example resolves to a private network address (10.0.0.7), which is not allowed.' } };
    await failAndShow(() => HttpResponse.json(body, { status: 400 }));
    expect(within(errorBox()).getByText('We cannot analyze that website address')).toBeTruthy();
    expect(
      within(errorBox()).getByText(
        "That address points to a private or internal network, which our analyzer is not allowed to visit. Enter your business's public website address, such as yourbusiness.com, or leave the website empty.",
      ),
    ).toBeTruthy();
    expect(within(errorBox()).getByText(`Failed to analyze website: Analysis failed: 400 ${JSON.stringify(body)}`).closest('details')!.open).toBe(false);
    expect(within(errorBox()).queryByRole('button', { name: 'Try again' })).toBeNull();
    expectFormKept();
  });

  it('400 validation_failed: the field and its message in words, not the envelope', async () => {
    const body = { error: { code: 'validation_failed', message: 'website: Enter a valid website address', details: [{ path: 'website', message: 'Enter a valid website address' }] } };
    await failAndShow(() => HttpResponse.json(body, { status: 400 }));
    expect(within(errorBox()).getByText('Please check what you entered')).toBeTruthy();
    expect(within(errorBox()).getByText('Website: Enter a valid website address.')).toBeTruthy();
    expect(within(errorBox()).queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('400 for a port: says ordinary addresses only', async () => {
    const body = { error: { code: 'website_refused', message: 'This website cannot be analyzed: Only ports 80 and 443 are allowed (got 8080).' } };
    await failAndShow(() => HttpResponse.json(body, { status: 400 }));
    expect(within(errorBox()).getByText(/Only ordinary web addresses can be analyzed, without a port number such as :8080\./)).toBeTruthy();
  });

  it('429: says when to try again from Retry-After', async () => {
    const body = { error: { code: 'rate_limited', message: 'Too many analyses from your connection. Please try again in an hour, or book a free consultation.' } };
    await failAndShow(() => HttpResponse.json(body, { status: 429, headers: { 'Retry-After': '1740' } }));
    expect(within(errorBox()).getByText('Too many analyses from your connection')).toBeTruthy();
    expect(within(errorBox()).getByText(/Please try again in about 29 minutes\./)).toBeTruthy();
    expect(within(errorBox()).getByText(`Failed to analyze website: Analysis failed: 429 ${JSON.stringify(body)}`)).toBeTruthy();
    expectFormKept();
  });

  it('503 from a proxy (not JSON): the server is down, the raw text is still shown', async () => {
    await failAndShow(() => new HttpResponse('Service Unavailable', { status: 503, headers: { 'Content-Type': 'text/plain' } }));
    expect(within(errorBox()).getByText('Our analysis service is down for the moment')).toBeTruthy();
    expect(within(errorBox()).getByText('Failed to analyze website: Analysis failed: 503 Service Unavailable')).toBeTruthy();
    expectFormKept();
  });

  it('network failure: the spec line with the error message, and the connection advice', async () => {
    await failAndShow(() => HttpResponse.error());
    expect(within(errorBox()).getByText('We could not reach our server')).toBeTruthy();
    expect(within(errorBox()).getByText(/^Failed to analyze website: \S/).textContent).not.toMatch(/Analysis failed/);
    expectFormKept();
  });

  it('starting again clears the previous error; a success after a failure shows only the result', async () => {
    const sent = analysisApi(
      SMB,
      () => HttpResponse.json({ error: { code: 'internal', message: 'boom' } }, { status: 500 }),
      () => HttpResponse.json(ANSWER),
    );
    const { user } = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    await user.type(nameField(), 'Sunrise Cafe');
    await user.click(analyzeButton());
    await screen.findByRole('alert');
    await user.click(within(errorBox()).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('button', { name: 'Copy link' }, { timeout: 4000 });
    expect(screen.queryByText(/Failed to analyze website/)).toBeNull();
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
  });

  it('starting again clears the previous result while the new analysis runs', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    analysisApi(SMB, () => HttpResponse.json(ANSWER), async () => {
      await held;
      return HttpResponse.json({ error: { code: 'internal', message: 'x' } }, { status: 500 });
    });
    const { user } = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    await user.type(nameField(), 'Sunrise Cafe');
    await user.click(analyzeButton());
    await screen.findByRole('button', { name: 'Copy link' }, { timeout: 4000 });
    await user.click(analyzeButton());
    expect(screen.queryByRole('button', { name: 'Copy link' })).toBeNull();
    expect(useAnalysisStore.getState()).toMatchObject({ result: null, error: null, step: 0, isAnalyzing: true });
    release();
    await screen.findByRole('alert');
    expect(useAnalysisStore.getState().isAnalyzing).toBe(false);
  });
});

describe('a broken answer', () => {
  it('a 200 that is not JSON is an error, not a crash', async () => {
    analysisApi(SMB, () => new HttpResponse('<html>oops</html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    const { user } = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    await user.type(nameField(), 'Sunrise Cafe{Enter}');
    expect(await screen.findByText('The analysis came back unreadable')).toBeTruthy();
    expect(screen.getByText('Failed to analyze website: Analysis failed: 200 <html>oops</html>')).toBeTruthy();
  });

  it('an answer missing parts still shows (defaults), with the report actions', async () => {
    const partial = { id: 'partial0report0id', businessInfo: { businessName: 'Half Data Deli' }, scores: {} };
    analysisApi(SMB, () => HttpResponse.json(partial));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { user } = renderAt('/free-analysis', <AnalysisPage variant="free" />);
    await user.type(nameField(), 'Half Data Deli{Enter}');
    expect(await screen.findByRole('button', { name: 'Copy link' }, { timeout: 4000 })).toBeTruthy();
    expect(screen.getAllByText('Half Data Deli').length).toBeGreaterThan(0);
    expect(screen.queryByRole('link', { name: 'Calculate your savings' })).toBeNull();
    warn.mockRestore();
  });
});

describe('an analysis in flight', () => {
  it('a second Analyze while one runs sends nothing more', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const sent = analysisApi(SMB, async () => {
      await held;
      return HttpResponse.json(ANSWER);
    });
    renderAt('/free-analysis', <AnalysisPage variant="free" />);
    fireEvent.change(nameField(), { target: { value: 'Sunrise Cafe' } });
    fireEvent.click(analyzeButton());
    fireEvent.submit(nameField().closest('form')!);
    await act(async () => {
      await useAnalysisStore.getState().retry();
    });
    await waitFor(() => expect(sent).toHaveLength(1));
    release();
    await screen.findByRole('button', { name: 'Copy link' }, { timeout: 4000 });
    expect(sent).toHaveLength(1);
  });
});

it('keeps the draft when the page is left and opened again', async () => {
  const first = renderAt('/free-analysis', <AnalysisPage variant="free" />);
  await first.user.type(nameField(), 'Sunrise Cafe');
  await first.user.selectOptions(locationField(), 'Pleasanton, CA');
  first.unmount();
  renderAt('/free-analysis', <AnalysisPage variant="free" />);
  expect(valueOf(nameField())).toBe('Sunrise Cafe');
  expect(valueOf(locationField())).toBe('Pleasanton, CA');
});

it('the store clears the analyzing flag whatever the answer (a handler that throws answers 500)', async () => {
  analysisApi(SMB, () => {
    throw new Error('handler exploded');
  });
  await act(() => useAnalysisStore.getState().analyze({ mode: 'smb', input: { businessName: 'X' } }));
  expect(useAnalysisStore.getState()).toMatchObject({ isAnalyzing: false, result: null });
  expect(useAnalysisStore.getState().error?.status).toBe(500);
});
