import { analysisPages } from '../features/analysis/data/meta';

export const pages = analysisPages;
export const routes = analysisPages.map((p) => p.path);
