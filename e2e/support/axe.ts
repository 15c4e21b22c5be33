import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';

/**
 * The site's header and footer: the shell's, around `main` (a remote's page has `<header>`s of its own inside `main`,
 * hence the path; axe's selectors know only the descendant and child combinators). They are the same on every page,
 * so a11y-public.spec.ts scans them once per theme and width, and every other scan leaves them out.
 */
export const SITE_CHROME = ['#root > div > header', '#root > div > footer'] as const;

/**
 * Whether a page is scanned at this width in this theme: axe runs once per page and theme (issue 31), and the two themes
 * take the two widths, so every page is scanned at desktop and at phone width, in light and in dark. The site's header
 * and footer, which change the most between widths, are scanned at both widths in both themes (a11y-public.spec.ts).
 */
export function isAxeWidth(theme: 'light' | 'dark', width: number): boolean {
  return theme === 'dark' ? width < PHONE_UP_TO : width >= PHONE_UP_TO;
}
/** Widths below this are a phone's. */
const PHONE_UP_TO = 640;

// axe-core as @axe-core/playwright depends on it (the same version its AxeBuilder injects).
const require = createRequire(import.meta.url);
const AXE_SOURCE = (createRequire(require.resolve('@axe-core/playwright'))('axe-core') as { source: string }).source;

export type ScanOptions = {
  /** Scan the site's header and footer too (a11y-public's scan of the chrome); otherwise they are left out. */
  chrome?: boolean;
  /** Only these rules (the colour rules of a second theme); otherwise every rule that can be serious or critical. */
  rules?: string[];
};

type Violation = { id: string; impact: string; targets: string[] };
type AxeRule = { id: string; impact?: string };
type AxeInPage = {
  _audit?: { rules: AxeRule[] };
  run: (
    context: unknown,
    options: unknown,
  ) => Promise<{ violations: { id: string; impact?: string | null; nodes: { target: unknown[] }[] }[] }>;
};

/**
 * The serious and critical violations axe finds on the page as it is now, one line per rule.
 *
 * What a scan costs is what it must: axe is put in the page once (AxeBuilder evaluates its 550 kB source twice per
 * scan, and its default mode then serialises every node of every passing rule, a unique selector each, and finishes
 * in a new page: seconds per scan on a busy machine). It runs once, in the page (`axe.run`; the site has no frames,
 * which is what the partial mode is for), reporting violations only, and without the rules whose impact is minor or
 * moderate: axe gives every result of a rule that rule's impact, so those can never fail this check. The context is
 * the document (page-level rules run) less the site's chrome unless asked for.
 */
export async function seriousViolations(page: Page, { chrome = false, rules }: ScanOptions = {}): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // The colours as they settle, not midway: a theme switched just before the scan still runs the buttons' colour
  // transitions (`transition-colors`), and a half-faded button would read as low contrast. Only transitions
  // are awaited (a spinner's animation never finishes), and for 2 s at most: one in a section the browser skips
  // (`content-visibility`) may not advance until it is near the screen.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a instanceof CSSTransition)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  const violations = await page.evaluate(
    async ({ exclude, only }) => {
      const axe = (window as unknown as { axe: AxeInPage }).axe;
      const mild = new Set(['minor', 'moderate']);
      const options = only
        ? { runOnly: { type: 'rule', values: only } }
        : { rules: Object.fromEntries((axe._audit?.rules ?? []).filter((r) => mild.has(r.impact ?? '')).map((r) => [r.id, { enabled: false }])) };
      const results = await axe.run({ exclude: exclude.map((s) => [s]) }, { ...options, resultTypes: ['violations'] });
      return results.violations.map((v): Violation => ({ id: v.id, impact: v.impact ?? '', targets: v.nodes.map((n) => n.target.join(' ')) }));
    },
    { exclude: chrome ? [] : [...SITE_CHROME], only: rules ?? null },
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.targets.length}): ${v.targets.slice(0, 4).join(' | ')}`);
}

/** Runs axe on the page as it is now (the site's chrome left out) and fails on any serious or critical violation, listing them. */
export async function expectNoSeriousA11yViolations(page: Page, context = '', options: ScanOptions = {}): Promise<void> {
  expect(await seriousViolations(page, options), `axe serious/critical violations ${context}`).toEqual([]);
}
