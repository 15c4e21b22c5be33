/** `/robots.txt`: everything is public except the admin panel. */
export function robotsTxt(publicOrigin: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /admin', '', `Sitemap: ${publicOrigin}/sitemap.xml`, ''].join('\n');
}
