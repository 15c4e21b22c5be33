import { describe, expect, it } from 'vitest';
import { DEFAULT_APP_ROUTES, ownerOfPath, ownershipTable, routeRefusal } from '../route-ownership';

const table = ownershipTable(DEFAULT_APP_ROUTES);

/** What each remote declares today (its routes and its pages), as built from mfe-<name>/src/app/routes.tsx. */
const TODAY = {
  marketing: [
    '/',
    '/local-services',
    '/local-services/danville-ai-automation',
    '/local-services/san-ramon-business-automation',
    '/local-services/walnut-creek-ai-solutions',
    '/local-services/pleasanton-automation-services',
    '/case-studies/danville-restaurant-automation',
    '/case-studies/san-ramon-tech-automation',
    '/case-studies/walnut-creek-retail-automation',
    '/case-studies/pleasanton-manufacturing-automation',
    '/restaurant-order-bot',
    '/retail-customer-service',
    '/service-business-automation',
    '/case-studies/restaurant-automation',
    '/roi-calculator',
  ],
  analysis: ['/free-analysis', '/website-analysis', '/free-analysis/report/:id'],
  blog: ['/blog', '/blog/category/:category', '/blog/:slug'],
  admin: ['/admin', '/admin/dashboard', '/admin/alerts', '/admin/posts', '/admin/posts/create', '/admin/integrations', '/admin/media', '/admin/deploys', '/admin/posts/:id/edit'],
} as const;

describe('route ownership (issue 51)', () => {
  it('the defaults accept every route today’s releases declare', () => {
    for (const [app, routes] of Object.entries(TODAY) as Array<[keyof typeof TODAY, readonly string[]]>) {
      for (const route of routes) expect(routeRefusal(table, app, route), `${app} ${route}`).toBeUndefined();
    }
  });

  it('refuses a route of another app or of the server, naming the route and its owner', () => {
    expect(routeRefusal(table, 'blog', '/admin')).toMatch(/"\/admin" is outside blog's routes \(it belongs to admin\): blog owns \/blog\*/);
    expect(routeRefusal(table, 'blog', '/admin/*')).toMatch(/belongs to admin/);
    expect(routeRefusal(table, 'blog', '/Admin/')).toMatch(/belongs to admin/);
    expect(routeRefusal(table, 'blog', '/blog/rss.xml')).toMatch(/belongs to the server/);
    expect(routeRefusal(table, 'marketing', '/api/posts')).toMatch(/belongs to the server/);
    expect(routeRefusal(table, 'marketing', '/sitemap.xml')).toMatch(/belongs to the server/);
    // A catch-all or a param where another app's paths begin would match them.
    expect(routeRefusal(table, 'marketing', '/*')).toMatch(/outside marketing's routes/);
    expect(routeRefusal(table, 'marketing', '/:page')).toMatch(/outside marketing's routes/);
    expect(routeRefusal(table, 'analysis', '/free-analysis-x')).toMatch(/outside analysis's routes/);
  });

  it('refuses a route the router would read otherwise than it looks', () => {
    expect(routeRefusal(table, 'blog', '//admin')).toMatch(/is not a route the site reads/);
    expect(routeRefusal(table, 'blog', '/blog?')).toMatch(/is not a route the site reads/);
    expect(routeRefusal(table, 'blog', '/blog/*/x')).toMatch(/is not a route the site reads/);
    expect(routeRefusal(table, 'blog', 'blog')).toMatch(/is not a route the site reads/);
    expect(routeRefusal(table, 'blog', `/blog/${'x'.repeat(400)}`)).toMatch(/longer than 300 characters/);
  });

  it('gives a path to its most specific owner', () => {
    expect(ownerOfPath(table, '/')).toBe('marketing');
    expect(ownerOfPath(table, '/admin')).toBe('admin');
    expect(ownerOfPath(table, '/%61dmin/posts')).toBe('admin');
    expect(ownerOfPath(table, '/blog/rss.xml')).toBe('server');
    expect(ownerOfPath(table, '/blog/post')).toBe('blog');
    expect(ownerOfPath(table, '/local-services')).toBe('marketing');
    expect(ownerOfPath(table, '/local-services-x')).toBeNull();
    expect(ownerOfPath(table, '/website-analysis/report/1')).toBe('analysis');
    expect(ownerOfPath(table, '/api')).toBe('server');
    expect(ownerOfPath(table, '/nowhere')).toBeNull();
    const nested = ownershipTable({ blog: ['/blog*'], admin: ['/blog/admin/*'] });
    expect(ownerOfPath(nested, '/blog/admin/x')).toBe('admin');
    expect(routeRefusal(nested, 'blog', '/blog/admin/:x')).toMatch(/belongs to admin/);
    expect(routeRefusal(nested, 'blog', '/blog/:slug')).toBeUndefined();
  });
});
