import type { AnalysisFailure } from '../../../lib/analysis-request';

/** What the error box says: a headline, what to do, and whether trying again helps. */
export interface FailureWords {
  title: string;
  advice: string;
  /** false when the same input would fail the same way (a refused website): change it first. */
  retryable: boolean;
}

/** Which call failed: the SMB form (website optional), website mode (address required), or loading a stored report. */
export type FailureContext = 'smb' | 'website' | 'report';

/** "about 1 minute", "about 45 minutes", "about 2 hours". */
export function formatWait(seconds: number): string {
  if (seconds < 60) return seconds <= 1 ? 'a moment' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  return `about ${hours} hour${hours === 1 ? '' : 's'}`;
}

/** What to type instead, right for the form: website mode needs an address, the SMB form can do without one. */
function enterInstead(context: FailureContext): string {
  return context === 'smb'
    ? "Enter your business's public website address, such as yourbusiness.com, or leave the website empty."
    : "Enter your business's public website address, such as yourbusiness.com.";
}

/** The reason the server gave for refusing a website, in words a visitor understands. */
function refusedWebsiteAdvice(serverMessage: string | undefined, context: FailureContext): string {
  const why = (serverMessage ?? '').replace(/^This website cannot be analyzed:\s*/i, '');
  const plain = (() => {
    if (/port/i.test(why)) return 'Only ordinary web addresses can be analyzed, without a port number such as :8080.';
    if (/private|loopback|link-local|local|reserved|carrier-grade|unspecified|mapped|multicast|broadcast|metadata|special-purpose|NAT64|6to4|Teredo/i.test(why))
      return 'That address points to a private or internal network, which our analyzer is not allowed to visit.';
    if (/user name or password/i.test(why)) return 'Website addresses with a user name or password in them cannot be analyzed.';
    if (/redirect/i.test(why)) return 'That address sends visitors through too many redirects to follow.';
    if (/html|content type|not a web page/i.test(why)) return 'That address does not lead to a web page (it may be a file or an image).';
    if (/2 MB|larger/i.test(why)) return 'That page is larger than 2 MB, more than the analyzer reads.';
    if (/too large or complex/i.test(why)) return 'That page is too large or complex for the analyzer to read in time.';
    if (/not a valid URL|no host|public host name/i.test(why)) return 'That does not look like a website address.';
    if (/http|scheme|protocol/i.test(why)) return 'Only http:// and https:// web addresses can be analyzed.';
    return why ? `${why.replace(/\.$/, '')}.` : 'The analyzer cannot visit that address.';
  })();
  return `${plain} ${enterInstead(context)}`;
}

const FIELD_NAMES: Record<string, string> = {
  businessName: 'Business name',
  website: 'Website',
  url: 'Website address',
  location: 'Location',
  businessType: 'Business type',
  mode: 'Analysis mode',
};

/** A validation answer's field messages ("Website: Enter a valid website address."), from its details when present. */
function fieldAdvice(failure: AnalysisFailure, context: FailureContext): string {
  const details = failure.details;
  const lines = Array.isArray(details)
    ? details.flatMap((d) => {
        if (!d || typeof d !== 'object') return [];
        const { path, message } = d as { path?: unknown; message?: unknown };
        if (typeof message !== 'string') return [];
        const field = typeof path === 'string' ? FIELD_NAMES[path] : undefined;
        return [`${field ? `${field}: ` : ''}${message.replace(/\.$/, '')}.`];
      })
    : [];
  if (lines.length) return lines.join(' ');
  return context === 'website' ? 'Check the website address and try again.' : 'Check the business name and the website address, then try again.';
}

/**
 * One message per error code (and per kind of failure without one), right for the form that sent the request. The
 * server's raw answer is never shown here: the error box keeps it under 'Technical details'.
 */
export function describeFailure(failure: AnalysisFailure, context: FailureContext = 'smb'): FailureWords {
  const { status, code, serverMessage, retryAfterSeconds } = failure;
  // A gateway's 429 or 413 has no envelope: the status names the same failure.
  const kind = code ?? (status === 429 ? 'rate_limited' : status === 413 ? 'payload_too_large' : undefined);
  if (status === 0 && code === undefined)
    return {
      title: 'We could not reach our server',
      advice:
        context === 'report'
          ? 'Check your internet connection and try again.'
          : 'Check your internet connection and try again. What you typed is still in the form.',
      retryable: true,
    };
  switch (kind) {
    case 'website_refused':
      return { title: 'We cannot analyze that website address', advice: refusedWebsiteAdvice(serverMessage, context), retryable: false };
    case 'validation_failed':
      return { title: 'Please check what you entered', advice: fieldAdvice(failure, context), retryable: false };
    case 'invalid_json':
    case 'unsupported_media_type':
    case 'bad_request':
      return {
        title: 'Your request did not reach us intact',
        advice: 'This is on our side or in the connection, not in what you typed. Please try again; if it keeps failing, reload the page.',
        retryable: true,
      };
    case 'payload_too_large':
      return {
        title: 'That entry is too long',
        advice: context === 'website' ? 'Shorten the website address and try again.' : 'Shorten the business name or website address and try again.',
        retryable: false,
      };
    case 'rate_limited':
      return {
        title: 'Too many analyses from your connection',
        advice: `To keep the tool free for everyone, analyses per hour are limited. Please try again in ${formatWait(retryAfterSeconds ?? 3600)}.`,
        retryable: false,
      };
    case 'not_found':
      return { title: 'This report does not exist', advice: 'Check that the link was copied in full, or run a new free analysis.', retryable: false };
    case 'unreadable_answer':
      return { title: 'The analysis came back unreadable', advice: 'This is on our side. Please try again in a minute.', retryable: true };
    case 'internal_error':
      return {
        title: 'Something went wrong on our side',
        advice: 'The analysis failed on our server, not because of anything you typed. Please try again; if it keeps failing, contact us.',
        retryable: true,
      };
    default:
      break;
  }
  // No envelope (a proxy or gateway answered), or a code this page does not know: the status says what kind it is.
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
  if (status === 400 || status === 422) return { title: 'Please check what you entered', advice: fieldAdvice(failure, context), retryable: false };
  return { title: 'The analysis could not be completed', advice: 'Please try again in a minute.', retryable: true };
}
