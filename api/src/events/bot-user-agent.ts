/*
 * Which User-Agent strings are not a person's browser, for the tracking events (page views above all): a crawler that
 * runs the page's script (Googlebot, Bingbot and the AI crawlers render pages), a link-preview fetcher, an uptime
 * monitor, a headless or automated browser, an HTTP library.
 *
 * The families come from isbot, a maintained list. One rule of ours sits on top, which no list needs to keep up with:
 * every browser a person uses still starts its UA with `Mozilla/`, so anything else (curl, python-requests, Node's
 * fetch, an empty header) is a program.
 */
import { isbot } from 'isbot';

const BROWSER_PREFIX = /^mozilla\//i;
/** Verdicts of recent User-Agents: most page views come from a few browsers, and isbot's pattern is long. */
const KNOWN = new Map<string, boolean>();
const KNOWN_MAX = 500;
const KNOWN_LENGTH = 512;

/** True when `userAgent` is not a person's browser (missing, not browser-shaped, or a known bot family). */
export function isBotUserAgent(userAgent: string | undefined): boolean {
  const ua = (userAgent ?? '').trim();
  if (!BROWSER_PREFIX.test(ua)) return true;
  const known = KNOWN.get(ua);
  if (known !== undefined) return known;
  const verdict = isbot(ua);
  // Bounded: a flood of made-up agents replaces the oldest verdicts, never grows the map.
  if (ua.length <= KNOWN_LENGTH) {
    if (KNOWN.size >= KNOWN_MAX) KNOWN.delete(KNOWN.keys().next().value!);
    KNOWN.set(ua, verdict);
  }
  return verdict;
}
