import { useId } from 'react';
import { formatUsd, formatUsdWhole } from '../../../lib/format';

/** Monthly labor cost before and after automation: a small accessible SVG bar chart with a text alternative. */
export function RoiChart({ before, after }: { before: number; after: number }) {
  const id = useId();
  const max = Math.max(before, after, 1);
  const height = 150;
  const bar = (value: number) => Math.max((value / max) * height, value > 0 ? 2 : 0);
  const bars = [
    { label: 'Before', value: before, x: 50, className: 'fill-muted-fg/60' },
    { label: 'After', value: after, x: 170, className: 'fill-accent' },
  ];
  const summary = `Monthly labor cost on these tasks drops from ${formatUsd(before)} before automation to ${formatUsd(after)} after.`;
  return (
    <figure className="rounded-xl border border-border bg-surface p-4">
      <figcaption id={`${id}-title`} className="text-sm font-semibold text-fg">
        Monthly cost before and after automation
      </figcaption>
      <svg
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        viewBox="0 0 300 200"
        className="mt-3 h-auto w-full max-w-sm"
      >
        <line x1="20" x2="290" y1="170" y2="170" className="stroke-border" strokeWidth="2" />
        {bars.map((b) => {
          const h = bar(b.value);
          return (
            <g key={b.label}>
              <rect x={b.x} y={170 - h} width="80" height={h} rx="6" className={b.className} />
              <text x={b.x + 40} y={Math.max(170 - h - 8, 14)} textAnchor="middle" className="fill-fg text-[13px] font-semibold">
                {formatUsdWhole(b.value)}
              </text>
              <text x={b.x + 40} y="190" textAnchor="middle" className="fill-muted-fg text-[12px]">
                {b.label}
              </text>
            </g>
          );
        })}
      </svg>
      <p id={`${id}-desc`} className="mt-2 text-sm text-muted-fg">
        {summary}
      </p>
    </figure>
  );
}
