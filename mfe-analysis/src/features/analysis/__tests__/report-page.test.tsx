import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { server } from '../../../../../vitest.msw';
import { ReportPage } from '../components/report-page';
import { reportHead } from '../data/report-head';
import { ANSWER, prepare, renderAt } from './test-kit';

beforeEach(() => {
  prepare();
});

describe('/free-analysis/report/:id', () => {
  it('loads the stored report and shows its scorecard, date and actions', async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/analyses/:id', ({ params }) => {
        asked.push(String(params.id));
        return HttpResponse.json(ANSWER);
      }),
    );
    renderAt(`/free-analysis/report/${ANSWER.id}`, <ReportPage />);
    expect(screen.getByText('Loading the report…')).toBeTruthy();
    // A report built from sample data says so in its headline.
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Sunrise Cafe sample scorecard');
    expect(screen.getByText('Built from sample data: its scores are an example, not this business’s real standing.')).toBeTruthy();
    expect(asked).toEqual([ANSWER.id]);
    expect(await screen.findByRole('button', { name: 'Copy link' }, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByText(/^A free growth scorecard by Tri-Valley AI Automation, from \w+ \d+, \d{4}\. Anyone with this link can open it\.$/)).toBeTruthy();
    expect(document.title).toBe('Sunrise Cafe growth scorecard | Tri-Valley AI Automation');
  });

  it('an unknown id shows a clear not-found state with the way to a new analysis', async () => {
    server.use(http.get('/api/analyses/:id', () => HttpResponse.json({ error: { code: 'not_found', message: 'Analysis not found' } }, { status: 404 })));
    renderAt('/free-analysis/report/doesnotexist42', <ReportPage />);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Report not found');
    expect(screen.getByRole('link', { name: 'Run a free analysis' }).getAttribute('href')).toBe('/free-analysis');
    // The tab's title follows the page once its state is known (an effect after the render).
    await waitFor(() => expect(document.title).toBe('Report not found | Tri-Valley AI Automation'));
  });

  it('a server failure says so and offers Try again, which loads again', async () => {
    let calls = 0;
    server.use(
      http.get('/api/analyses/:id', () => {
        calls += 1;
        return calls === 1 ? new HttpResponse('Bad Gateway', { status: 502 }) : HttpResponse.json(ANSWER);
      }),
    );
    const { user } = renderAt(`/free-analysis/report/${ANSWER.id}`, <ReportPage />);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('This report could not be loaded');
    expect(screen.getByRole('alert').textContent).toMatch(/Our analysis service is down for the moment/);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByRole('heading', { level: 1, name: 'Sunrise Cafe sample scorecard' })).textContent).toBeTruthy();
    expect(calls).toBe(2);
  });

  it('uses the report the server embedded for this id without asking again', async () => {
    // No handler for GET /api/analyses: a request would fail the test (onUnhandledRequest: error).
    renderAt(`/free-analysis/report/${ANSWER.id}`, <ReportPage data={ANSWER} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sunrise Cafe sample scorecard');
    expect(await screen.findByRole('button', { name: 'Copy link' }, { timeout: 4000 })).toBeTruthy();
  });
});

describe('report head', () => {
  it('titles the page by the business, never indexes it and points canonical at itself', () => {
    expect(reportHead({ id: ANSWER.id }, ANSWER)).toEqual({
      path: `/free-analysis/report/${ANSWER.id}`,
      title: 'Sunrise Cafe growth scorecard | Tri-Valley AI Automation',
      description: expect.stringMatching(/^Sample growth scorecard of Sunrise Cafe in Danville, CA: sample overall \d+\/100 .*, built from sample data, with an AI/),
      noindex: true,
      canonical: `/free-analysis/report/${ANSWER.id}`,
    });
    expect(reportHead({ id: 'x' }, null).title).toBe('Business growth scorecard | Tri-Valley AI Automation');
    // A live report quotes its overall score; one without an overall grade quotes none.
    const live = structuredClone(ANSWER) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reshaping the fixture
    for (const score of Object.values(live.scores) as Array<Record<string, unknown>>) score.sample = false;
    const strip = (v: unknown): void => {
      if (!v || typeof v !== 'object') return;
      for (const [k, x] of Object.entries(v)) {
        if (k === 'isMockData') delete (v as Record<string, unknown>)[k];
        else strip(x);
      }
    };
    strip(live.scores);
    expect(reportHead({ id: 'x' }, live).description).toMatch(/^Growth scorecard of Sunrise Cafe in Danville, CA: overall \d+\/100 across/);
    live.scores.overall.verified = false;
    expect(reportHead({ id: 'x' }, live).description).toBe('Growth scorecard of Sunrise Cafe in Danville, CA, with an AI readiness assessment and an action plan.');
  });
});
