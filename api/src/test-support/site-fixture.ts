import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { checkStatsNow } from '../lib/stat-shared';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BLOG_ROUTES } from '@site/contracts/blog-routes';
import type { MfeManifest, RemoteName } from '@site/contracts/manifest';

export const INLINE_SCRIPT = "\n      document.documentElement.dataset.theme = 'light';\n    ";
export const INLINE_SCRIPT_HASH = `'sha256-${createHash('sha256').update(INLINE_SCRIPT).digest('base64')}'`;
export const SECRET = 'TOP-SECRET-do-not-serve';

export const SHELL_INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <!--site-head-->
    <title>Default shell title</title>
    <!--/site-head-->
    <script>${INLINE_SCRIPT}</script>
    <script type="application/json" id="remotes-manifest"><!--remotes-json--></script>
    <script type="module" crossorigin src="/assets/index-Ab12Cd34.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

export const MANIFESTS: Record<'marketing' | 'blog' | 'admin', MfeManifest> = {
  marketing: {
    name: 'marketing',
    version: '1.2.3',
    routes: ['/', '/local-services/:city', '/roi-calculator'],
    pages: [
      {
        path: '/',
        title: 'Home of <Automation> & "Co"',
        description: 'We automate the boring parts & more',
        jsonLd: { '@context': 'https://schema.org', '@type': 'Organization', name: '</script><script>alert(1)</script>' },
      },
      { path: '/roi-calculator', title: 'ROI calculator', description: 'What automation saves you', canonical: '/roi' },
    ],
  },
  blog: {
    name: 'blog',
    version: '0.9.0',
    // What mfe-blog's route table declares (its manifest lists exactly these).
    routes: [BLOG_ROUTES.home, BLOG_ROUTES.category, BLOG_ROUTES.post],
    pages: [{ path: '/blog', title: 'The blog', description: 'Guides and case studies', ogType: 'blog' }],
    server: { routes: 'server/routes.js' },
  },
  admin: {
    name: 'admin',
    version: '3.0.0',
    routes: ['/admin/*'],
    pages: [{ path: '/admin', title: 'Admin', description: 'Site administration', noindex: true }],
  },
};

/**
 * A remote's server module as the build writes it (`dist/server/routes.js`): the route table with `data` and
 * `head(params, data)`, plain JS. `titleSuffix` lets a test redeploy one whose head answers differently.
 */
export function blogServerModule(titleSuffix = ' | Tri-Valley AI Automation'): string {
  return `
export const routes = [
  { path: '/blog', meta: { path: '/blog', title: 'The blog', description: 'Guides and case studies' } },
  { path: '/blog/category/:category' },
  {
    path: '/blog/:slug',
    data: { source: 'post', param: 'slug' },
    head: (params, post) => ({
      path: '/blog/' + post.slug,
      title: post.title + ${JSON.stringify(titleSuffix)},
      description: post.metaDescription,
      canonical: '/blog/' + post.slug,
      ogType: 'article',
      image: post.ogImage,
      jsonLd: {
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: post.title,
        image: [post.ogImage],
        mainEntityOfPage: { '@type': 'WebPage', '@id': '/blog/' + params.slug },
      },
    }),
  },
];
`;
}

/** An analysis remote with a report page whose head needs the stored analysis (added by tests that want it). */
export const ANALYSIS_MANIFEST: MfeManifest = {
  name: 'analysis',
  version: '4.0.0',
  routes: ['/free-analysis', '/free-analysis/report/:id'],
  pages: [{ path: '/free-analysis', title: 'Free analysis', description: 'How your business shows up online' }],
  server: { routes: 'server/routes.js' },
};
export const ANALYSIS_SERVER_MODULE = `
export const routes = [
  { path: '/free-analysis' },
  {
    path: '/free-analysis/report/:id',
    data: { source: 'analysis-report', param: 'id' },
    head: (params, report) => ({
      path: '/free-analysis/report/' + params.id,
      title: 'Analysis of ' + report.businessInfo.businessName,
      description: 'Analyzed at ' + report.analyzedAt,
      noindex: true,
    }),
  },
];
`;

export interface SiteFixture {
  root: string;
  writeManifest(name: RemoteName, manifest: unknown): Promise<void>;
  writeFile(relative: string, content: string | Uint8Array): Promise<void>;
  remove(relative: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** A fake SITE_ROOT: a built shell and three remote dists (no analysis), plus a file that must stay private. */
export async function createSiteFixture(): Promise<SiteFixture> {
  const root = await mkdtemp(path.join(tmpdir(), 'api-test-site-'));
  const put = async (relative: string, content: string | Uint8Array) => {
    const file = path.join(root, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  };
  await put('secret.txt', SECRET);
  await put('shell/secret.txt', SECRET);
  await put('shell/dist/index.html', SHELL_INDEX);
  await put('shell/dist/favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
  await put('shell/dist/assets/index-Ab12Cd34.js', 'console.log("shell");');
  await put('shell/dist/assets/index-Ef56Gh78.css', 'body{margin:0}');
  for (const [name, manifest] of Object.entries(MANIFESTS)) {
    await put(`mfe-${name}/dist/mfe-manifest.json`, JSON.stringify(manifest));
    await put(`mfe-${name}/dist/assets/remoteEntry.js`, `export const name = ${JSON.stringify(name)};`);
  }
  await put('mfe-blog/dist/assets/__federation_shared_@site/ui-CLqA2eVG.js', 'export const ui = 1;');
  await put('mfe-blog/dist/assets/style-CFEB0EW0.css', '.blog{color:red}');
  await put('mfe-blog/dist/assets/fonts/inter.woff2', 'not really a font');
  await put('mfe-blog/dist/.env', SECRET);
  await put('mfe-blog/dist/server/routes.js', blogServerModule());
  // A change by the test stands for another process's (a build, a deploy script): the site sees it at its next
  // once-a-second check (lib/stat-shared.ts), run here at once.
  const changed = async (relative: string, content: string | Uint8Array) => {
    await put(relative, content);
    await checkStatsNow();
  };
  return {
    root,
    writeManifest: (name, manifest) => changed(`mfe-${name}/dist/mfe-manifest.json`, JSON.stringify(manifest)),
    writeFile: changed,
    remove: async (relative) => {
      await rm(path.join(root, relative), { recursive: true, force: true });
      await checkStatsNow();
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/**
 * A blog server module that renders on the server (with the built shell's server entry): a heading, then the titles
 * of its data (a post, or the first list), with the blog's data sources and a head for posts.
 */
export function renderingBlogEntry(label: string): string {
  return `
import { createElement } from 'react';
export const routes = [
  { path: '/blog', data: { source: 'post-list' } },
  { path: '/blog/category/:category', data: { source: 'post-list', param: 'category' } },
  {
    path: '/blog/:slug',
    data: { source: 'post', param: 'slug' },
    head: (params, post) => ({ path: '/blog/' + post.slug, title: post.title, description: post.excerpt }),
  },
];
export async function render(url, ctx) {
  const titles = ctx.data?.title ? [ctx.data.title] : (ctx.data?.lists?.[0]?.list.posts ?? []).map((p) => p.title);
  return {
    element: createElement('div', null, createElement('h1', null, ${JSON.stringify(label)}), createElement('ul', null, ...titles.map((t) => createElement('li', { key: t }, t)))),
    status: 200,
  };
}
`;
}
