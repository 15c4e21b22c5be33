import { useSyncExternalStore } from 'react';
import { siteOrigin } from '@site/ui';
import { reportPath } from '../../lib/report-links';

const noSubscription = () => () => {};
// The server's render (and so the hydrating one) shows the path; the browser then names the site's public origin.
const serverOrigin = () => '';

/**
 * The report's permanent address on its printout (and a PDF saved from it), so a paper copy leads back to the live
 * report. Print only: on screen the report actions show it with Copy link. Plain text, not a second link to the same
 * place beside the on-screen one.
 */
export function PrintPermalink({ id }: { id: string | null }) {
  const origin = useSyncExternalStore(noSubscription, siteOrigin, serverOrigin);
  const path = reportPath({ id });
  if (!path) return null;
  return (
    <p className="mt-2 hidden text-sm text-fg print:block" data-print-permalink="">
      Permanent link to this report: <span className="break-all font-medium">{`${origin}${path}`}</span>
    </p>
  );
}
