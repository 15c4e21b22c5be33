import type { AnalysisFailure } from '../../../lib/analysis-request';

/** What the error box says above the spec's raw line: a headline, what to do, and whether trying again helps. */
export interface FailureWords {
  title: string;
  advice: string;
  /** false when the same input would fail the same way (a refused website): change it first. */
  retryable: boolean;
}

/** "about 1 minute", "about 45 minutes", "about 2 hours". */
export function formatWait(seconds: number): string {
  if (seconds < 60) return seconds <= 1 ? 'a moment' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  return `about ${hours} hour${hours === 1 ? '' : 's'}`;
}

/** The reason the server gave for refusing a website, in words a visitor understands. */
function refusedWebsiteAdvice(serverMessage: string | undefined): string {
  const why = (serverMessage ?? '').replace(/^This website cannot be analyzed:\s*/i, '');
  const plain = (() => {
    if (/port/i.test(why)) return 'Only ordinary web addresses can be analyzed, without a port number such as :8080.';
    if (/private|loopback|link-local|local|reserved|carrier-grade|unspecified|mapped|multicast|broadcast|metadata|special-purpose|NAT64|6to4|Teredo/i.test(why))
      return 'That address points to a private or internal network, which our analyzer is not allowed to visit.';
    if (/user name or password/i.test(why)) return 'Website addresses with a user name or password in them cannot be analyzed.';
    if (/redirect/i.test(why)) return 'That address sends visitors through too many redirects to follow.';
    if (/html|content type|not a web page/i.test(why)) return 'That address does not lead to a web page (it may be a file or an image).';
    if (/2 MB|too large|larger/i.test(why)) return 'That page is larger than 2 MB, more than the analyzer reads.';
    if (/http|scheme|protocol/i.test(why)) return 'Only http:// and https:// web addresses can be analyzed.';
    return why ? `${why.replace(/\.$/, '')}.` : 'The analyzer cannot visit that address.';
  })();
  return `${plain} Enter your business's public website address, such as yourbusiness.com, or leave the website empty.`;
}

/** Turns a failed analysis call into words; the raw line stays below them for anyone who needs it. */
export function describeFailure(failure: AnalysisFailure): FailureWords {
  const { status, code, serverMessage, retryAfterSeconds } = failure;
  if (status === 0 && code === undefined)
    return {
      title: 'We could not reach our server',
      advice: 'Check your internet connection and try again. What you typed is still in the form.',
      retryable: true,
    };
  if (code === 'website_refused')
    return { title: 'We cannot analyze that website address', advice: refusedWebsiteAdvice(serverMessage), retryable: false };
  if (status === 429)
    return {
      title: 'Too many analyses from your connection',
      advice: `To keep the tool free for everyone, analyses per hour are limited. Please try again in ${formatWait(retryAfterSeconds ?? 3600)}.`,
      retryable: false,
    };
  if (status === 400 || status === 422)
    return {
      title: 'Please check what you entered',
      advice: serverMessage ? `${serverMessage.replace(/\.$/, '')}.` : 'The server could not use what was entered.',
      retryable: false,
    };
  if (status === 413) return { title: 'That entry is too long', advice: 'Shorten the business name or website address and try again.', retryable: false };
  if (code === 'unreadable_answer')
    return { title: 'The analysis came back unreadable', advice: 'This is on our side. Please try again in a minute.', retryable: true };
  if (status === 502 || status === 503 || status === 504)
    return {
      title: 'Our analysis service is down for the moment',
      advice: 'The server is not answering right now. Your entries are kept: please try again in a few minutes.',
      retryable: true,
    };
  if (status >= 500)
    return {
      title: 'Something went wrong on our side',
      advice: 'The analysis failed on our server, not because of anything you typed. Please try again; if it keeps failing, contact us.',
      retryable: true,
    };
  return { title: 'The analysis could not be completed', advice: serverMessage ?? 'Please try again.', retryable: true };
}
