import { useSiteOrigin } from '@site/ui';
import { reportPath } from '../../lib/report-links';

/**
 * The report's permanent address on its printout (and a PDF saved from it), so a paper copy leads back to the live
 * report. Print only: on screen the report actions show it with Copy link. Plain text, not a second link to the same
 * place beside the on-screen one.
 */
export function PrintPermalink({ id }: { id: string | null }) {
  // The site's public address, in the server's HTML too: a page printed without JavaScript names it as well.
  const origin = useSiteOrigin();
  const path = reportPath({ id });
  if (!path) return null;
  return (
    <p className="mt-2 hidden text-sm text-fg print:block" data-print-permalink="">
      Permanent link to this report: <span className="break-all font-medium">{`${origin}${path}`}</span>
    </p>
  );
}
