import type { PlatformEvidence, VerificationLink } from '@site/contracts/analysis';
import type { AnalysisQuery, WebsiteFacts } from '../types';

/*
 * Facebook, Instagram and LinkedIn have no keyless public API. We do not claim to have checked them: their
 * evidence is 'unknown' (never 'missing') and carries search links a person can open, plus any profile link
 * the business's own website points to.
 */

export type SocialPlatform = 'facebook' | 'instagram' | 'linkedin';

const PLATFORMS: Record<SocialPlatform, { title: string; domain: string; searchUrl: (q: string) => string }> = {
  facebook: {
    title: 'Facebook Business',
    domain: 'facebook.com',
    searchUrl: (q) => `https://www.facebook.com/search/pages/?q=${encodeURIComponent(q)}`,
  },
  instagram: {
    title: 'Instagram',
    domain: 'instagram.com',
    searchUrl: (q) => `https://www.instagram.com/explore/search/keyword/?q=${encodeURIComponent(q)}`,
  },
  linkedin: {
    title: 'LinkedIn',
    domain: 'linkedin.com',
    searchUrl: (q) => `https://www.linkedin.com/search/results/companies/?keywords=${encodeURIComponent(q)}`,
  },
};

export function socialPlatformEvidence(
  platform: SocialPlatform,
  query: AnalysisQuery,
  website: WebsiteFacts | null,
  checkedAt: string,
): PlatformEvidence {
  const p = PLATFORMS[platform];
  const searchTerm = query.location ? `${query.businessName} ${query.location}` : query.businessName;
  const links: VerificationLink[] = [
    { title: `Search ${p.title}`, domain: p.domain, description: `Open ${p.title} search for "${searchTerm}"`, url: p.searchUrl(query.businessName) },
    {
      title: `Search Google for a ${p.title} page`,
      domain: 'google.com',
      description: `Google results limited to ${p.domain}`,
      url: `https://www.google.com/search?q=${encodeURIComponent(`site:${p.domain} "${query.businessName}"${query.location ? ` ${query.location}` : ''}`)}`,
    },
  ];
  const linked = website?.socialLinks[platform] ?? null;
  if (linked) {
    links.unshift({ title: `${p.title} page linked from the website`, domain: p.domain, description: 'Found as a link on the business website', url: linked });
  }
  return {
    platform: p.title,
    found: null,
    status: 'unknown',
    searchTerm,
    apiEndpoint: 'none (no keyless public API)',
    dataSource: `Not checked automatically: ${p.title} offers no keyless API; verify with the links`,
    verificationLinks: links,
    lastChecked: checkedAt,
    error: null,
    linkedFromWebsite: linked,
  };
}
