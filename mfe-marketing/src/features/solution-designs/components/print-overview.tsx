import { SITE } from '@site/ui';
import { PHASE_NAMES, type SolutionDesign } from '../data/solution-designs';

/**
 * Opens the browser's print dialog (Save as PDF) for the print-ready overview below. The document title
 * becomes the suggested file name while the dialog is open.
 */
export function printOverview(design: SolutionDesign): void {
  const previous = document.title;
  document.title = `Solution Overview - ${design.headline}`;
  const restore = () => {
    document.title = previous;
    window.removeEventListener('afterprint', restore);
  };
  window.addEventListener('afterprint', restore);
  window.print();
}

/**
 * Only on paper: the print rules in the app's stylesheet (src/index.css) hide everything else on the page, shell
 * header and footer included, while this overview is on it.
 */
export function PrintOverview({ design }: { design: SolutionDesign }) {
  return (
    <div data-print-overview="" className="hidden bg-white text-[11pt] leading-snug text-black print:block">
      <p className="text-sm font-semibold uppercase tracking-wider">
        {SITE.name} · Solution Overview
      </p>
      <h1 className="mt-1 text-2xl font-bold">{design.headline}</h1>
      <p className="mt-2">{design.lead}</p>

      <h2 className="mt-5 border-b border-black pb-1 text-lg font-bold">Our Approach</h2>
      <dl className="mt-2 space-y-1">
        <dt className="font-semibold">Problem Analysis</dt>
        <dd>{design.approach.problemAnalysis}</dd>
        <dt className="font-semibold">Solution Design</dt>
        <dd>{design.approach.solutionDesign}</dd>
        <dt className="font-semibold">Expected Outcomes</dt>
        <dd>{design.approach.expectedOutcomes}</dd>
      </dl>

      <h2 className="mt-5 border-b border-black pb-1 text-lg font-bold">Challenges</h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {design.challenges.map((c) => (
          <li key={c.title}>
            <strong>{c.title}.</strong> {c.body}
          </li>
        ))}
      </ul>

      <h2 className="mt-5 border-b border-black pb-1 text-lg font-bold">Solution Design</h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {design.solutions.map((s) => (
          <li key={s.title}>
            <strong>{s.title}.</strong> {s.body} ({s.features.join('; ')})
          </li>
        ))}
      </ul>

      <h2 className="mt-5 border-b border-black pb-1 text-lg font-bold">Expected Outcomes</h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {design.outcomes.map((o) => (
          <li key={o.label}>
            <strong>
              {o.figure} {o.label}.
            </strong>{' '}
            {o.body}
          </li>
        ))}
      </ul>

      <h2 className="mt-5 border-b border-black pb-1 text-lg font-bold">Phased Implementation Strategy</h2>
      <ol className="mt-2 list-decimal space-y-1 pl-5">
        {design.phases.map((p, i) => (
          <li key={PHASE_NAMES[i]}>
            <strong>
              {PHASE_NAMES[i]} ({p.duration}).
            </strong>{' '}
            {p.body}
          </li>
        ))}
      </ol>

      <p className="mt-6 border-t border-black pt-2 text-sm">
        Figures are targets for a solution design, not results of a finished project. {SITE.name} · {SITE.phone} · {SITE.email}
      </p>
    </div>
  );
}
