import { createHash } from 'node:crypto';

/** A strong ETag naming `content` (its SHA-256, 32 base64url characters). */
export function strongEtag(content: string | Buffer): string {
  return `"${createHash('sha256').update(content).digest('base64url').slice(0, 32)}"`;
}

/**
 * Whether an If-None-Match header names this ETag (or `*`): then the client has it and gets 304. Weak comparison, as
 * RFC 9110 13.1.2 asks for If-None-Match. Evaluated whatever the request's Cache-Control says (browsers and fetch send
 * `no-cache` with their conditional requests).
 */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === opaque;
  });
}
