import { lazy } from 'react';
import type { RemoteRouteDef } from '@site/ui';
import { analysisPages } from '../features/analysis/data/meta';

const AnalysisPage = lazy(() => import('../features/analysis/components/analysis-page').then((m) => ({ default: m.AnalysisPage })));

const meta = (path: string) => analysisPages.find((p) => p.path === path)!;

/** The one route table of mfe-analysis: its router, its manifest and the server's metadata read it. */
export const routes: RemoteRouteDef[] = [
  { path: '/free-analysis', page: AnalysisPage, props: { variant: 'free' }, meta: meta('/free-analysis') },
  { path: '/website-analysis', page: AnalysisPage, props: { variant: 'website' }, meta: meta('/website-analysis') },
];
