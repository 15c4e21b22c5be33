import { Badge, Button, Card, Container, scrollToId, Section } from '@site/ui';
import { WEBSITE_HERO_STATS, WHY_ANALYZE } from '../data/website-page';

/** Scrolls to the tool and puts the keyboard in its first field. */
function startFreeAnalysis() {
  scrollToId('analysis-tool');
  document.querySelector<HTMLElement>('#analysis-tool input:not([type=radio])')?.focus({ preventScroll: true });
}

/** /website-analysis: the hero with its three stats and the 'Start Free Analysis' button. */
export function WebsiteHero() {
  return (
    <div className="border-b border-border bg-gradient-to-b from-primary-soft/60 to-bg print:hidden">
      <Container className="py-14 sm:py-20">
        <Badge>Free tool · no sign-up</Badge>
        <h1 className="mt-4 max-w-3xl text-4xl font-extrabold tracking-tight text-fg sm:text-5xl">Free Website &amp; Business Analysis</h1>
        <p className="mt-5 max-w-2xl text-lg text-muted-fg">
          See how your website and your listings look to customers and to search engines: speed, security, SEO basics, reviews and
          where you stand against local competitors. Then a plan to fix what matters first.
        </p>
        <Button size="lg" className="mt-8" onClick={startFreeAnalysis}>
          Start Free Analysis
        </Button>
        <dl className="mt-10 grid max-w-3xl grid-cols-3 gap-2 sm:gap-4">
          {WEBSITE_HERO_STATS.map((s) => (
            <div key={s.label} className="flex flex-col rounded-2xl border border-border bg-surface p-3 shadow-sm sm:p-5">
              <dt className="text-xs text-muted-fg sm:text-sm">{s.label}</dt>
              <dd className="order-first text-xl font-extrabold whitespace-nowrap text-fg sm:text-3xl">{s.value}</dd>
            </div>
          ))}
        </dl>
      </Container>
    </div>
  );
}

/** 'Why Analyze Your Website?': performance, SEO, security. */
export function WhyAnalyze() {
  return (
    <Section id="why-analyze" title="Why Analyze Your Website?" className="bg-surface-muted/60 print:hidden">
      <ul className="grid gap-6 md:grid-cols-3">
        {WHY_ANALYZE.map((w) => (
          <li key={w.title}>
            <Card className="h-full">
              <h3 className="text-lg font-semibold text-fg">{w.title}</h3>
              <p className="mt-2 text-sm text-muted-fg">{w.text}</p>
            </Card>
          </li>
        ))}
      </ul>
    </Section>
  );
}
