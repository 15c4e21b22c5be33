import { memo, useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState, useTransition, type CSSProperties, type RefObject } from 'react';
import { useLocation } from 'react-router-dom';
import {
  calculateRoi,
  clampRoiInput,
  ROI_DEFAULTS,
  ROI_LIMITS,
  ROI_INPUT_KEYS,
  roiInputsFromQuery,
  roiInputsToQuery,
  toRoiNumber,
  type RoiInputKey,
  type RoiInputs,
} from '@site/contracts/roi';
import { ROI_SAMPLE_HANDOFF } from '@site/contracts/analysis-rules';
import { Button, Card, cn, notify, track } from '@site/ui';
import { formatHours, formatOneDecimal, formatPercent, formatUsd, formatUsdWhole } from '../../../lib/format';
import { RoiChart } from './roi-chart';

type FieldSpec = {
  key: RoiInputKey;
  label: string;
  unit: string;
  slider?: { min: number; max: number; step: number };
  prefix?: string;
  help?: string;
};

const TASKS: FieldSpec[] = [
  { key: 'customerService', label: 'Customer service', unit: 'hours per week', slider: { min: 0, max: 40, step: 1 }, help: 'Phone calls, emails, DMs, order questions' },
  { key: 'appointmentScheduling', label: 'Appointment scheduling', unit: 'hours per week', slider: { min: 0, max: 40, step: 1 }, help: 'Booking, rescheduling, confirmations' },
  { key: 'invoicingAndBilling', label: 'Invoicing and billing', unit: 'hours per week', slider: { min: 0, max: 40, step: 1 }, help: 'Creating invoices, chasing payments' },
  { key: 'dataEntryAndReporting', label: 'Data entry and reporting', unit: 'hours per week', slider: { min: 0, max: 40, step: 1 }, help: 'Copying between systems, weekly reports' },
  { key: 'followUpsAndReminders', label: 'Follow-ups and reminders', unit: 'hours per week', slider: { min: 0, max: 40, step: 1 }, help: 'Quotes, no-shows, review requests' },
];
const BUSINESS: FieldSpec[] = [
  { key: 'costPerHour', label: 'Cost per hour', unit: 'dollars', prefix: '$', help: 'Average loaded wage of the people doing this work' },
  { key: 'staffCount', label: 'Staff members', unit: 'people', help: 'People who share these tasks' },
  { key: 'monthlyRevenue', label: 'Monthly revenue', unit: 'dollars', prefix: '$' },
];
const EFFICIENCY: FieldSpec = {
  key: 'automationEfficiency',
  label: 'Automation efficiency',
  unit: 'percent',
  slider: { min: 0, max: 100, step: 5 },
  help: 'Share of this work automation takes over. 60-80% is typical for our clients.',
};

/** Shown instead of ROI and payback while monthly revenue is 0 or empty. */
const NO_REVENUE_MESSAGE = 'Enter your monthly revenue to see ROI and payback';
/** Shown instead of a payback period while the savings are 0. */
const NO_SAVINGS_MESSAGE = 'No savings to pay back yet';

type Draft = Record<RoiInputKey, string>;
const toDraft = (inputs: RoiInputs): Draft =>
  Object.fromEntries(ROI_INPUT_KEYS.map((k) => [k, String(inputs[k])])) as Draft;
const toInputs = (draft: Draft): RoiInputs =>
  Object.fromEntries(ROI_INPUT_KEYS.map((k) => [k, clampRoiInput(k, draft[k])])) as RoiInputs;

/** The sentence shown under a field whose value is over its limit. */
function overLimitMessage(spec: FieldSpec): string {
  const limit = ROI_LIMITS[spec.key];
  const shown = spec.prefix === '$' ? formatUsdWhole(limit) : `${limit} ${spec.unit}`;
  return `Enter at most ${shown}. The calculation uses ${shown}.`;
}

/**
 * The ROI calculator (spec sections 3, 4, 5, 9). Results stay hidden until 'Calculate ROI', then follow the
 * inputs. Once shown, the inputs are mirrored in the URL query so the link reopens the same scenario.
 */
export function RoiCalculator({ shareHash = '' }: { shareHash?: string }) {
  const uid = useId();
  const { search } = useLocation();
  const [initial] = useState(() => roiInputsFromQuery(search));
  // Hours handed over by a free scorecard that was built on sample data (no provider keys): say they are an example.
  const [fromSample] = useState(() => new URLSearchParams(search).get(ROI_SAMPLE_HANDOFF.param) === ROI_SAMPLE_HANDOFF.value);
  const [draft, setDraft] = useState<Draft>(() => toDraft(initial ?? ROI_DEFAULTS));
  const [shown, setShown] = useState(initial !== null);
  // The results appear in a transition: the press is answered at the next frame, and the figures, the chart and the
  // share box render right after it (INP, e2e/scripts/inp.mjs) instead of holding that frame.
  const [revealing, startReveal] = useTransition();
  const focusResults = useRef(false);
  const [shareUrl, setShareUrl] = useState('');
  const resultsHeading = useRef<HTMLHeadingElement>(null);

  const inputs = useMemo(() => toInputs(draft), [draft]);
  // A slider's move renders its field at once; the results (figures, chart) follow in a render React may interrupt
  // and slice, so a drag stays smooth with the results on screen (INP, e2e/scripts/inp.mjs).
  const resultInputs = useDeferredValue(inputs);
  const result = useMemo(() => calculateRoi(resultInputs), [resultInputs]);

  // Mirror the scenario in the address bar (debounced: a dragged slider fires many changes).
  useEffect(() => {
    if (!shown) return;
    const timer = window.setTimeout(() => {
      const query = roiInputsToQuery(inputs, window.location.search).toString();
      const { pathname, hash, origin } = window.location;
      window.history.replaceState(window.history.state, '', `${pathname}?${query}${hash}`);
      setShareUrl(`${origin}${pathname}?${query}${shareHash}`);
    }, 200);
    return () => window.clearTimeout(timer);
  }, [shown, inputs, shareHash]);

  // Stable, so a field that did not change is not rendered again (RoiField is memoized).
  const setField = useCallback((key: RoiInputKey, value: string) => setDraft((d) => ({ ...d, [key]: value })), []);

  const onCalculate = () => {
    // Focus moves to the results once they are there, so keyboard and screen-reader users land on them.
    if (shown) {
      resultsHeading.current?.focus();
    } else {
      focusResults.current = true;
      startReveal(() => setShown(true));
    }
    track('roi_calculated', { annualSavings: Math.round(calculateRoi(inputs).annualSavings), efficiency: inputs.automationEfficiency });
  };
  useEffect(() => {
    if (!shown || !focusResults.current) return;
    focusResults.current = false;
    resultsHeading.current?.focus();
  }, [shown]);

  const onReset = () => setDraft(toDraft(ROI_DEFAULTS));

  const field = (spec: FieldSpec) => (
    <RoiField key={spec.key} spec={spec} id={`${uid}-${spec.key}`} draftValue={draft[spec.key]} value={inputs[spec.key]} onSet={setField} />
  );

  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <Card className="space-y-8 p-6 sm:p-8">
        {fromSample && (
          <p role="note" className="rounded-lg border border-amber-400 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-100">
            Prefilled from sample data: the scorecard these hours come from was built on sample figures. Replace them with your own.
          </p>
        )}
        <fieldset className="space-y-5">
          <legend className="mb-4 text-lg font-semibold text-fg">Weekly hours spent on repetitive tasks</legend>
          {TASKS.map(field)}
        </fieldset>
        <fieldset className="space-y-5">
          <legend className="mb-4 text-lg font-semibold text-fg">Your business</legend>
          {BUSINESS.map(field)}
          {field(EFFICIENCY)}
        </fieldset>
        <div className="flex flex-wrap gap-3">
          <Button size="lg" onClick={onCalculate} aria-busy={revealing || undefined} className="flex-1 sm:flex-none">
            Calculate ROI
          </Button>
          <Button size="lg" variant="ghost" onClick={onReset}>
            Reset to defaults
          </Button>
        </div>
      </Card>

      <div>
        {shown ? (
          <RoiResults uid={uid} result={result} inputs={resultInputs} shareUrl={shareUrl} headingRef={resultsHeading} />
        ) : (
          <Card className="border-dashed lg:sticky lg:top-24">
            <p className="text-lg font-semibold text-fg">Your results appear here</p>
            <p className="mt-2 text-sm text-muted-fg">
              Set the hours your team spends each week, then press Calculate ROI. The defaults describe a typical
              five-person service business.
            </p>
            <ul className="mt-4 space-y-2 text-sm text-fg">
              <li>
                <strong>Monthly and annual savings</strong> in dollars: the cost of the hours automation takes over.
              </li>
              <li>
                <strong>ROI</strong>: those savings as a share of your annual revenue.
              </li>
              <li>
                <strong>Payback period</strong>: how many years of savings add up to one year of revenue.
              </li>
            </ul>
          </Card>
        )}
      </div>
    </div>
  );
}

/** One input of the calculator (a slider's with its number field). Memoized: a change renders only its own field. */
const RoiField = memo(function RoiField({
  spec,
  id,
  draftValue,
  value,
  onSet,
}: {
  spec: FieldSpec;
  id: string;
  /** What the visitor typed. */
  draftValue: string;
  /** The number it counts as (clamped). */
  value: number;
  onSet: (key: RoiInputKey, value: string) => void;
}) {
  const over = toRoiNumber(draftValue) > ROI_LIMITS[spec.key];
  const describedBy = [spec.help && `${id}-help`, over && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <div className="flex items-center justify-between gap-3">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {spec.label}
        </label>
        <div className="flex items-center gap-1">
          {spec.prefix && <span className="text-sm text-muted-fg" aria-hidden="true">{spec.prefix}</span>}
          <input
            id={spec.slider ? `${id}-number` : id}
            type="number"
            inputMode="decimal"
            min={0}
            max={ROI_LIMITS[spec.key]}
            step={spec.slider?.step ?? 'any'}
            value={draftValue}
            onChange={(e) => onSet(spec.key, e.target.value)}
            aria-label={spec.slider ? `${spec.label} (${spec.unit})` : undefined}
            aria-describedby={describedBy}
            aria-invalid={over || undefined}
            className={cn(
              'rounded-md border bg-surface px-2 py-1 text-right text-sm text-fg focus:border-primary focus:outline-none focus:ring-2 focus:ring-ring/40',
              over ? 'border-red-600 dark:border-red-400' : 'border-border',
              spec.key === 'monthlyRevenue' ? 'w-28' : 'w-20',
            )}
          />
          {spec.slider && <span className="w-8 text-xs text-muted-fg" aria-hidden="true">{spec.key === 'automationEfficiency' ? '%' : 'h/wk'}</span>}
        </div>
      </div>
      {spec.slider && (
        <input
          id={id}
          type="range"
          min={spec.slider.min}
          max={spec.slider.max}
          step={spec.slider.step}
          value={Math.min(Math.max(value, spec.slider.min), spec.slider.max)}
          onChange={(e) => onSet(spec.key, e.target.value)}
          aria-valuetext={`${value} ${spec.unit}`}
          aria-describedby={spec.help ? `${id}-help` : undefined}
          className="roi-range mt-2 w-full"
          style={{ '--fill': (Math.min(Math.max(value, spec.slider.min), spec.slider.max) - spec.slider.min) / (spec.slider.max - spec.slider.min) } as CSSProperties}
        />
      )}
      {spec.help && (
        <p id={`${id}-help`} className="mt-1 text-xs text-muted-fg">
          {spec.help}
        </p>
      )}
      {over && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-xs font-medium text-red-700 dark:text-red-300">
          {overLimitMessage(spec)}
        </p>
      )}
    </div>
  );
});

/**
 * The results once shown: the figures, the chart and the share box, from the inputs as React has deferred them
 * (useDeferredValue). Memoized: a move of a slider does not render them in the same frame.
 */
const RoiResults = memo(function RoiResults({
  uid,
  result,
  inputs,
  shareUrl,
  headingRef,
}: {
  uid: string;
  result: ReturnType<typeof calculateRoi>;
  inputs: RoiInputs;
  shareUrl: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(shareUrl);
      notify.success('Link copied', { description: 'Anyone who opens it sees this scenario and its results.' });
    } catch {
      notify.error('Could not copy the link', { description: 'Select the link and copy it by hand.' });
    }
  };
  return (
    <section aria-labelledby={`${uid}-results`} className="space-y-5">
      <h3 id={`${uid}-results`} ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-fg focus:outline-none">
        Your estimated savings
      </h3>
      <dl className="grid gap-4 sm:grid-cols-2">
        <Figure label="Monthly savings" value={formatUsd(result.automationSavings)} tone="accent" note={`${formatHours(result.hoursSavedPerMonth)} hours back each month`} />
        <Figure label="Annual savings" value={formatUsd(result.annualSavings)} tone="accent" note="Monthly savings times 12" />
        <Figure label="Time on repetitive tasks" value={`${formatHours(result.totalHoursPerMonth)} hours/month`} note={`${formatHours(result.totalHoursPerWeek)} hours a week`} />
        <Figure label="Monthly cost of that time" value={formatUsd(result.totalCostPerMonth)} note="Those hours times your cost per hour" />
        {inputs.monthlyRevenue > 0 ? (
          <>
            <Figure label="ROI" value={formatPercent(result.roiPercentage)} note="What ROI means here: your annual savings as a share of your annual revenue" />
            {result.annualSavings > 0 ? (
              <Figure
                label="Payback period"
                value={`${formatOneDecimal(result.paybackPeriod)} years`}
                note="What payback means here: how many years of these savings add up to one year of your revenue (annual revenue divided by annual savings)"
              />
            ) : (
              // The formula's 0 would read as instant payback; with no savings there is none.
              <Figure label="Payback period" missing={NO_SAVINGS_MESSAGE} note="Add weekly hours, a cost per hour and an automation efficiency above 0." />
            )}
          </>
        ) : (
          // Without revenue the formulas give 0% and 0 years, which read as 'no return' and 'instant payback'.
          <Figure
            label="ROI and payback period"
            missing={NO_REVENUE_MESSAGE}
            note="Both compare your savings with your annual revenue, so they need it."
            className="sm:col-span-2"
          />
        )}
      </dl>
      {inputs.staffCount > 0 && result.hoursSavedPerMonth > 0 && (
        <p className="rounded-xl bg-accent-soft px-4 py-3 text-sm text-fg">
          That is about <strong>{formatHours(result.hoursSavedPerStaff)} hours a month</strong> back for each of your{' '}
          {inputs.staffCount} staff members: time for customers instead of copy-and-paste.
        </p>
      )}
      <RoiChart before={result.totalCostPerMonth} after={Math.max(result.totalCostPerMonth - result.automationSavings, 0)} />
      <div className="rounded-xl border border-border bg-surface p-4">
        <label htmlFor={`${uid}-share`} className="text-sm font-semibold text-fg">
          Shareable link to this scenario
        </label>
        <div className="mt-2 flex gap-2">
          <input
            id={`${uid}-share`}
            readOnly
            value={shareUrl}
            onFocus={(e) => e.currentTarget.select()}
            className="min-w-0 flex-1 rounded-md border border-border bg-surface-muted px-2 py-1.5 text-xs text-fg"
          />
          <Button variant="secondary" size="sm" onClick={copyLink} disabled={!shareUrl}>
            Copy link
          </Button>
        </div>
      </div>
    </section>
  );
});

/** A result: its figure, or (`missing`) what the figure needs that the inputs do not give. */
function Figure({
  label,
  value,
  missing,
  note,
  tone,
  className,
}: { label: string; note?: string; tone?: 'accent'; className?: string } & ({ value: string; missing?: never } | { value?: never; missing: string })) {
  return (
    <div className={cn('rounded-xl border border-border p-4', missing ? 'border-dashed bg-surface' : tone === 'accent' ? 'bg-accent-soft' : 'bg-surface', className)}>
      <dt className="text-sm text-muted-fg">{label}</dt>
      {missing ? (
        <dd className="mt-1 text-base font-semibold text-fg">{missing}</dd>
      ) : (
        <dd className={cn('mt-1 text-2xl font-bold tabular-nums', tone === 'accent' ? 'text-accent' : 'text-fg')}>{value}</dd>
      )}
      {note && <dd className="mt-1 text-xs text-muted-fg">{note}</dd>}
    </div>
  );
}
