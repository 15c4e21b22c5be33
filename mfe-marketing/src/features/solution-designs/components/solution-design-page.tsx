import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { Badge, Button, Card, Container, ExternalLink, SITE, Section, buttonClasses, scrollToId, scrollWhenPresent, track, useScrollToTop } from '@site/ui';
import { PHASE_NAMES, type SolutionDesign } from '../data/solution-designs';
import { PrintOverview, printOverview } from './print-overview';
import { TitledCardGrid } from '../../../components/titled-card-grid';
import { CtaBand, ON_BAND_OUTLINE } from '../../../components/cta-band';
import { figureText } from '../../../lib/format';

/** One layout for the four solution-design pages. */
export function SolutionDesignPage({ design }: { design: SolutionDesign }) {
  useScrollToTop();
  const contactHeading = useRef<HTMLHeadingElement>(null);

  const toContact = (action: string) => {
    track('case_study_click', { page: design.slug, action });
    scrollToId('contact');
    // Keyboard and screen-reader users land where the page scrolled to.
    contactHeading.current?.focus({ preventScroll: true });
  };

  const approach = [
    { title: 'Problem Analysis', body: design.approach.problemAnalysis },
    { title: 'Solution Design', body: design.approach.solutionDesign },
    { title: 'Expected Outcomes', body: design.approach.expectedOutcomes },
  ];

  return (
    <>
      <article className="print:hidden">
        <header className="border-b border-border bg-gradient-to-b from-primary-soft/70 to-bg">
          <Container className="py-14 sm:py-20">
            <Link to={design.townPath} className="text-sm font-semibold text-primary hover:underline dark:text-blue-300">
              ← Back to {design.town} Services
            </Link>
            <div className="mt-6">
              <Badge>
                {design.industry} · {design.town}, CA
              </Badge>
            </div>
            <h1 className="mt-4 max-w-4xl text-4xl font-extrabold tracking-tight text-fg sm:text-5xl">{design.headline}</h1>
            <p className="mt-6 max-w-3xl text-lg leading-relaxed text-muted-fg">{design.lead}</p>
            <p className="mt-3 max-w-3xl text-sm text-muted-fg">
              A solution design: the plan we would follow, with figures we aim for, not results from a finished project.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button size="lg" onClick={() => toContact('get_similar_solution_design')}>
                Get Similar Solution Design
              </Button>
              <Button
                size="lg"
                variant="secondary"
                onClick={() => {
                  track('case_study_click', { page: design.slug, action: 'download_solution_overview' });
                  printOverview(design);
                }}
              >
                Download Solution Overview
              </Button>
            </div>
          </Container>
        </header>

        <Section id="our-approach" title="Our Approach">
          <ol className="grid gap-6 md:grid-cols-3">
            {approach.map((a, i) => (
              <li key={a.title}>
                <Card className="h-full">
                  <span className="inline-flex h-9 w-9 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-fg" aria-hidden="true">
                    {i + 1}
                  </span>
                  <h3 className="mt-4 text-lg font-bold text-fg">{a.title}</h3>
                  <p className="mt-2 leading-relaxed text-muted-fg">{a.body}</p>
                </Card>
              </li>
            ))}
          </ol>
        </Section>

        <Section id="challenges" title="Challenges Being Addressed" className="bg-surface-muted">
          <TitledCardGrid items={design.challenges} columns="md:grid-cols-2" cardClassName="border-l-4 border-l-warning" />
        </Section>

        <Section id="solution-design" title="Solution Design">
          <ul className="grid gap-6 md:grid-cols-2">
            {design.solutions.map((s) => (
              <li key={s.title}>
                <Card className="h-full">
                  <h3 className="text-xl font-bold text-fg">{s.title}</h3>
                  <p className="mt-2 leading-relaxed text-muted-fg">{s.body}</p>
                  <ul className="mt-4 space-y-2">
                    {s.features.map((f) => (
                      <li key={f} className="flex gap-2 text-fg">
                        <span aria-hidden="true" className="text-accent">
                          ✓
                        </span>
                        {f}
                      </li>
                    ))}
                  </ul>
                </Card>
              </li>
            ))}
          </ul>
        </Section>

        <Section id="expected-outcomes" title="Expected Outcomes" className="bg-surface-muted">
          <ul className="grid gap-6 md:grid-cols-3">
            {design.outcomes.map((o) => (
              <li key={o.label}>
                <Card className="h-full text-center">
                  <p className="text-4xl font-extrabold text-primary dark:text-blue-300">{figureText(o.figure)}</p>
                  <h3 className="mt-1 font-semibold text-fg">{o.label}</h3>
                  <p className="mt-3 text-sm leading-relaxed text-muted-fg">{o.body}</p>
                </Card>
              </li>
            ))}
          </ul>
        </Section>

        <Section id="implementation" title="Phased Implementation Strategy">
          <ol className="grid gap-6 md:grid-cols-3">
            {design.phases.map((p, i) => (
              <li key={PHASE_NAMES[i]}>
                <Card className="h-full">
                  <p className="text-sm font-semibold text-accent">{p.duration}</p>
                  <h3 className="mt-1 text-lg font-bold text-fg">
                    {i + 1}. {PHASE_NAMES[i]}
                  </h3>
                  <p className="mt-2 leading-relaxed text-muted-fg">{p.body}</p>
                </Card>
              </li>
            ))}
          </ol>
        </Section>

        <section id="contact" aria-labelledby="contact-heading" className="scroll-mt-24 bg-surface-muted py-16">
          <Container>
            <Card className="mx-auto max-w-3xl p-8">
              <h2 id="contact-heading" ref={contactHeading} tabIndex={-1} className="text-2xl font-bold text-fg focus:outline-none">
                Talk to us about a {design.industry.toLowerCase()} solution design
              </h2>
              <p className="mt-3 text-muted-fg">
                A free 30-minute consultation: we listen, then send a written design like this one for your {design.town} business. Plans
                start at {SITE.priceFrom}.
              </p>
              <dl className="mt-6 grid gap-4 sm:grid-cols-2">
                <div>
                  <dt className="text-sm font-semibold text-muted-fg">Call</dt>
                  <dd>
                    <a href={SITE.phoneHref} className="text-lg font-semibold text-primary hover:underline dark:text-blue-300">
                      {SITE.phone}
                    </a>
                  </dd>
                </div>
                <div>
                  <dt className="text-sm font-semibold text-muted-fg">Email</dt>
                  <dd>
                    <a href={`mailto:${SITE.email}`} className="text-lg font-semibold text-primary hover:underline dark:text-blue-300">
                      {SITE.email}
                    </a>
                  </dd>
                </div>
              </dl>
              <div className="mt-6 flex flex-col gap-3 sm:flex-row">
                <ExternalLink href={SITE.bookingUrl} className={buttonClasses('primary', 'md')}>
                  Book a Free Consultation
                </ExternalLink>
                <Link to="/#contact" onClick={() => scrollWhenPresent('contact')} className={buttonClasses('secondary', 'md')}>
                  Send Us a Message
                </Link>
              </div>
            </Card>
          </Container>
        </section>

        <CtaBand
          id="closing-heading"
          title="Ready for a design of your own?"
          body={`Every business in ${design.town} is different. We start with yours and put the plan in writing before you commit.`}
        >
          <Button size="lg" variant="inverse" onClick={() => toContact('start_solution_design')}>
            Start Solution Design
          </Button>
          <Button size="lg" variant="ghost" className={ON_BAND_OUTLINE} onClick={() => toContact('schedule_consultation')}>
            Schedule Consultation
          </Button>
        </CtaBand>
      </article>
      <PrintOverview design={design} />
    </>
  );
}
