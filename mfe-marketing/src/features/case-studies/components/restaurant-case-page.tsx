import { Link } from 'react-router-dom';
import { Badge, Card, Container, Section, scrollWhenPresent } from '@site/ui';
import type { RestaurantCaseStudy } from '../data/case-studies';
import { CtaBand } from '../../../components/cta-band';
import { SectionLink } from '../../../components/section-link';
import { trackCaseStudyClick } from '../lib/track-case-study-click';

/** /case-studies/restaurant-automation (also the footer link). */
export function RestaurantCasePage({ study }: { study: RestaurantCaseStudy }) {
  return (
    <article>
      <header className="border-b border-border bg-gradient-to-b from-primary-soft/70 to-bg">
        <Container className="py-14 sm:py-20">
          <Link to="/#testimonials" onClick={() => scrollWhenPresent('testimonials')} className="text-sm font-semibold text-primary hover:underline dark:text-blue-300">
            ← Back to Testimonials
          </Link>
          <div className="mt-6">
            <Badge>Case Study · Restaurant</Badge>
          </div>
          <h1 className="mt-4 max-w-4xl text-4xl font-extrabold tracking-tight text-fg sm:text-5xl">{study.headline}</h1>
          <p className="mt-6 max-w-3xl text-lg leading-relaxed text-muted-fg">{study.lead}</p>
          <div className="mt-8">
            <SectionLink section="contact" variant="primary" onNavigate={trackCaseStudyClick}>
              Get Similar Results
            </SectionLink>
          </div>
        </Container>
      </header>

      <Section id="overview" title="Overview">
        <p className="mx-auto max-w-3xl text-lg leading-relaxed text-muted-fg">{study.overview}</p>
      </Section>

      <Section id="challenge" title="The Challenge" intro={study.challenge.body} className="bg-surface-muted">
        <ul className="mx-auto grid max-w-4xl gap-4 sm:grid-cols-3">
          {study.challenge.points.map((p) => (
            <li key={p} className="rounded-xl border-l-4 border-warning bg-warning-soft p-4 font-medium text-fg">
              {p}
            </li>
          ))}
        </ul>
      </Section>

      <Section id="implementation" title="Implementation">
        <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {study.steps.map((s, i) => (
            <li key={s.title}>
              <Card className="h-full">
                <p className="text-sm font-semibold text-accent">Step {i + 1}</p>
                <h3 className="mt-1 text-lg font-bold text-fg">{s.title}</h3>
                <p className="mt-2 text-sm text-muted-fg">{s.body}</p>
              </Card>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="metrics" title="The Numbers" className="bg-surface-muted">
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {study.metrics.map((m) => (
            <Card key={m.label} className="flex flex-col-reverse text-center">
              <dt className="mt-1 text-sm text-muted-fg">{m.label}</dt>
              <dd className="text-2xl font-extrabold text-primary dark:text-blue-300">
                {m.before ? (
                  <>
                    {m.before} <span role="img" aria-label="to">→</span> {m.after}
                  </>
                ) : (
                  m.after
                )}
              </dd>
            </Card>
          ))}
        </dl>
      </Section>

      <Section id="results" title="Results">
        <ul className="mx-auto max-w-3xl space-y-3">
          {study.results.map((r) => (
            <li key={r} className="flex gap-3 text-lg text-fg">
              <span aria-hidden="true" className="text-accent">
                ✓
              </span>
              {r}
            </li>
          ))}
        </ul>
      </Section>

      <CtaBand
        id="restaurant-cta"
        title="Could your restaurant take more orders with fewer calls?"
        body="A free 30-minute consultation tells you what AI ordering would change for you."
      >
        <SectionLink section="contact" variant="inverse" onNavigate={trackCaseStudyClick}>
          Schedule Free Consultation
        </SectionLink>
        <Link to="/#testimonials" onClick={() => scrollWhenPresent('testimonials')} className="inline-flex items-center justify-center rounded-lg px-6 py-3 font-semibold text-white underline-offset-4 hover:underline">
          Read What Other Owners Say
        </Link>
      </CtaBand>
    </article>
  );
}
