import { SITE } from '@site/ui';

/** A header item: an in-page section of the home page, or a page of its own. */
export type NavItem = { label: string; section: string } | { label: string; to: string };

export const NAV_ITEMS: NavItem[] = [
  { label: 'Home', section: 'home' },
  { label: 'Services', section: 'services' },
  { label: 'Projects', section: 'projects' },
  { label: 'Blog', to: '/blog' },
  { label: 'Free Analysis', to: '/free-analysis' },
  { label: 'ROI Calculator', section: 'roi-calculator' },
  { label: 'Contact', section: 'contact' },
];

export const LOCAL_SERVICES = { label: 'Local Services', to: '/local-services', towns: SITE.towns };
