import { SAFE_LINK } from './clean-pasted-html';

export const LINK_ADDRESS_PROBLEM = 'Use an address that starts with https://, http://, mailto: or / (a page of this site).';

const EMAIL = /^[^\s@/:]+@[\w-]+(?:\.[\w-]+)+$/;
const BARE_DOMAIN = /^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:[/?#]\S*)?$/i;

/**
 * What the link form's address field means: a link the server keeps (http(s), mailto, tel, a site path, an anchor),
 * with the scheme added to an e-mail address (mailto:) or a bare domain (https://), or the problem to show.
 */
export function readLinkAddress(typed: string): { href: string } | { problem: string } {
  const value = typed.trim();
  if (!value) return { problem: "Enter the link's address." };
  if (SAFE_LINK.test(value)) return { href: value };
  if (EMAIL.test(value)) return { href: `mailto:${value}` };
  if (BARE_DOMAIN.test(value)) return { href: `https://${value}` };
  return { problem: LINK_ADDRESS_PROBLEM };
}
