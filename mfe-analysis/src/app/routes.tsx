import { lazy } from 'react';
import type { RemoteRouteDef } from '@site/ui';
import { analysisPages } from '../features/analysis/data/meta';
import { reportHead } from '../features/analysis/data/report-head';

const AnalysisPage = lazy(() => import('../features/analysis/components/analysis-page').then((m) => ({ default: m.AnalysisPage })));
const ReportPage = lazy(() => import('../features/analysis/components/report-page').then((m) => ({ default: m.ReportPage })));

const meta = (path: string) => analysisPages.find((p) => p.path === path)!;

/** The one route table of mfe-analysis: its router, its manifest and the server's metadata read it. */
export const routes: RemoteRouteDef[] = [
  { path: '/free-analysis', page: AnalysisPage, props: { variant: 'free' }, meta: meta('/free-analysis') },
  { path: '/website-analysis', page: AnalysisPage, props: { variant: 'website' }, meta: meta('/website-analysis') },
  {
    path: '/free-analysis/report/:id',
    page: ReportPage,
    // The server loads the stored report (404 for an unknown id) and hands it to `head`.
    data: { source: 'analysis-report', param: 'id' },
    head: reportHead,
  },
];
