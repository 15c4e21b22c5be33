import type { ReferrerClass } from '@site/contracts/events';

/** Search engines, by the name that stands as one label of their host (www.google.co.uk, cn.bing.com, search.yahoo.co.jp). */
const SEARCH_NAMES = new Set(['google', 'bing', 'duckduckgo', 'yahoo', 'baidu', 'yandex', 'ecosia', 'qwant', 'startpage', 'kagi', 'naver', 'seznam']);
const SEARCH_HOSTS = ['search.brave.com'];
/** Social networks and messengers, by their domains (a subdomain counts: l.facebook.com, m.youtube.com). */
const SOCIAL_HOSTS = [
  'facebook.com', 'fb.com', 'fb.me', 'instagram.com', 'linkedin.com', 'lnkd.in', 't.co', 'twitter.com', 'x.com', 'reddit.com',
  'youtube.com', 'youtu.be', 'tiktok.com', 'nextdoor.com', 'threads.net', 'bsky.app', 'mastodon.social', 'whatsapp.com', 't.me',
  'telegram.org', 'snapchat.com', 'quora.com', 'tumblr.com',
];
const SOCIAL_NAMES = new Set(['pinterest']);
/** Android apps name themselves as `android-app://<package>`: the Google app is a search, these are social. */
const SOCIAL_APPS = ['com.facebook.', 'com.instagram.', 'com.linkedin.', 'com.twitter.', 'com.reddit.', 'com.pinterest', 'com.zhiliaoapp.musically', 'com.nextdoor'];

const onHost = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/**
 * Which kind of place sent the visitor here, from `document.referrer`: nothing (typed, bookmarked, an app that sends
 * no referrer), this site, a search engine, a social network, or another site. Only this class leaves the browser;
 * the referring address never does.
 */
export function referrerClass(referrer: string, ownOrigin: string): ReferrerClass {
  if (!referrer) return 'direct';
  let url: URL;
  try {
    url = new URL(referrer);
  } catch {
    return 'other';
  }
  if (url.protocol === 'android-app:') {
    const app = url.hostname.toLowerCase();
    if (app === 'com.google.android.googlequicksearchbox') return 'search';
    return SOCIAL_APPS.some((prefix) => app.startsWith(prefix)) ? 'social' : 'other';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'other';
  if (url.origin === ownOrigin) return 'internal';
  const host = url.hostname.toLowerCase();
  const labels = host.split('.');
  if (labels.some((l) => SEARCH_NAMES.has(l)) || SEARCH_HOSTS.some((h) => onHost(host, h))) return 'search';
  if (labels.some((l) => SOCIAL_NAMES.has(l)) || SOCIAL_HOSTS.some((h) => onHost(host, h))) return 'social';
  return 'other';
}
