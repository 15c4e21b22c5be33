import { Link } from 'react-router-dom';
import { Button, buttonClasses, notify, track, useSiteOrigin } from '@site/ui';
import type { AnalysisResult } from '../../../lib/analysis-request';
import { reportPath, roiCalculatorHref } from '../../../lib/report-links';

/**
 * What a reader does with a report: copy its permalink, print it (or save it as PDF), and open the ROI
 * calculator prefilled with its savings inputs. The address bar is never changed behind the visitor's back.
 */
export function ReportActions({ result }: { result: AnalysisResult }) {
  const path = reportPath(result);
  const roiHref = roiCalculatorHref(result);
  // The site's public origin (as canonical links name it, and the printout: print-permalink.tsx), in the server's
  // HTML too.
  const origin = useSiteOrigin();
  const url = path ? `${origin}${path}` : null;

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      notify.success('Link copied', { description: 'Anyone with the link can open this report.' });
      track('scorecard_click', { action: 'copy_link' });
    } catch {
      notify.error('Could not copy the link', { description: `Select it and copy it by hand: ${url}` });
    }
  };

  return (
    <div className="print:hidden">
      <div className="flex flex-wrap gap-3">
        {url && (
          <Button variant="secondary" onClick={copy}>
            Copy link
          </Button>
        )}
        <Button
          variant="secondary"
          onClick={() => {
            track('scorecard_click', { action: 'print' });
            window.print();
          }}
        >
          Print / Save as PDF
        </Button>
        {roiHref && (
          <Link to={roiHref} className={buttonClasses('primary')} onClick={() => track('scorecard_click', { action: 'calculate_savings' })}>
            Calculate your savings
          </Link>
        )}
      </div>
      {path && (
        <p className="mt-3 text-sm text-muted-fg">
          Permanent link to this report:{' '}
          <Link to={path} className="break-all font-medium text-primary underline underline-offset-2 dark:text-blue-300">
            {url}
          </Link>
        </p>
      )}
    </div>
  );
}
