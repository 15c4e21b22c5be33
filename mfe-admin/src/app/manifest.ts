import { routes as table } from './routes';

export const pages = table.flatMap((r) => (r.meta ? [r.meta] : []));
export const routes = table.map((r) => r.path);
