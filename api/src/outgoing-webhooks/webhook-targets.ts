import dns from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { isLinkLocalOrMetadataHost, WEBHOOK_MESSAGES } from '@site/contracts/webhooks-out';
import { addressRefusal, type ResolvedAddress, type Resolver } from '../analysis/website/fetch-website';

export type { ResolvedAddress, Resolver };

/*
 * Where an outgoing webhook may go. Three kinds of address:
 * - `metadata`: link-local and cloud metadata (the contract's isLinkLocalOrMetadataHost): never, whatever the settings;
 * - `private`: everything that is not global unicast (loopback, RFC 1918, CGNAT, unique local, 0.0.0.0 …, the
 *   analysis fetcher's allow-list decides): only with WEBHOOK_ALLOW_PRIVATE_TARGETS (n8n on the owner's own network);
 * - `public`: global unicast.
 * Saving checks what was typed (a literal address or a known name); sending checks every address the host resolves to
 * at that moment and connects to one of those very addresses (webhook-sender.ts), so DNS cannot swap the target.
 */
export type AddressKind = 'metadata' | 'private' | 'public';

/** The kind of one IP address (an invalid one counts as metadata: never connected to). */
export function addressKind(address: string): AddressKind {
  if (!ipaddr.isValid(address)) return 'metadata';
  // ipaddr.js writes every form (mapped, octal, a zone) in full: the contract's rule reads that one spelling.
  if (isLinkLocalOrMetadataHost(ipaddr.parse(address).toNormalizedString()) || isLinkLocalOrMetadataHost(address)) return 'metadata';
  return addressRefusal(address) === null ? 'public' : 'private';
}

/** A URL's host name as the checks read it: lower case, no brackets, no trailing dots. */
export function normalizeHost(hostname: string): string {
  let host = hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  // By hand: /\.+$/ backtracks quadratically on a long run of dots.
  while (host.endsWith('.')) host = host.slice(0, -1);
  return host;
}

const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/**
 * What saving an endpoint can tell from its URL alone (no DNS lookup): a literal address or a known name that is
 * metadata, or private while private targets are off. Undefined when it may be saved (a name is checked when sent).
 */
export function savedTargetProblem(url: string, allowPrivate: boolean): string | undefined {
  let host: string;
  try {
    host = normalizeHost(new URL(url).hostname);
  } catch {
    return undefined;
  }
  if (isLinkLocalOrMetadataHost(host)) return WEBHOOK_MESSAGES.urlMetadata;
  const kind = ipaddr.isValid(host) ? addressKind(host) : isLocalhostName(host) ? 'private' : 'public';
  if (kind === 'metadata') return WEBHOOK_MESSAGES.urlMetadata;
  if (kind === 'private' && !allowPrivate) return WEBHOOK_MESSAGES.urlPrivate;
  return undefined;
}

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** A target that may be connected to: these addresses (every one checked), and whether they are private. */
export type CheckedTarget = { ok: true; addresses: ResolvedAddress[]; private: boolean } | { ok: false; reason: string };

/** Why a delivery to `host` is not sent (the delivery log's words: the owner fixes the URL or the setting). */
export const TARGET_REFUSALS = {
  metadata: (host: string) => `Not sent: ${host} is or resolves to a link-local or cloud metadata address, where webhooks are never sent.`,
  private: (host: string) =>
    `Not sent: ${host} is or resolves to a private or loopback address. Set WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the server to send webhooks to your own network.`,
} as const;

/**
 * Resolves `hostname` once (a literal address is itself) and checks every address: one metadata address refuses the
 * target, one private address refuses it unless `allowPrivate`. Throws what the resolver throws (a network error).
 */
export async function checkTarget(hostname: string, options: { allowPrivate: boolean; resolver: Resolver }): Promise<CheckedTarget> {
  const host = normalizeHost(hostname);
  if (isLinkLocalOrMetadataHost(host)) return { ok: false, reason: TARGET_REFUSALS.metadata(host) };
  const addresses: ResolvedAddress[] = ipaddr.isValid(host) ? [{ address: host, family: host.includes(':') ? 6 : 4 }] : await options.resolver(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  const kinds = addresses.map((a) => addressKind(a.address));
  if (kinds.includes('metadata')) return { ok: false, reason: TARGET_REFUSALS.metadata(host) };
  const isPrivate = kinds.includes('private') || isLocalhostName(host);
  if (isPrivate && !options.allowPrivate) return { ok: false, reason: TARGET_REFUSALS.private(host) };
  return { ok: true, addresses, private: isPrivate };
}
