import { Link } from 'react-router-dom';
import { Badge, Card, Container, Section, buttonClasses } from '@site/ui';
import type { ServiceBusinessStudy } from '../data/case-studies';
import { TitledCardGrid } from '../../../components/titled-card-grid';
import { CtaBand, ON_BAND_OUTLINE } from '../../../components/cta-band';
import { SectionLink } from '../../../components/section-link';
import { trackCaseStudyClick } from '../lib/track-case-study-click';
import { figureText } from '../../../lib/format';

/** /service-business-automation. */
export function ServiceBusinessPage({ study }: { study: ServiceBusinessStudy }) {
  return (
    <article>
      <header className="border-b border-border bg-gradient-to-b from-primary-soft/70 to-bg">
        <Container className="py-14 sm:py-20">
          <Link to="/" className="text-sm font-semibold text-primary hover:underline dark:text-blue-300">
            ← Back to Home
          </Link>
          <div className="mt-6">
            <Badge>Project · Service businesses</Badge>
          </div>
          <h1 className="mt-4 max-w-4xl text-4xl font-extrabold tracking-tight text-fg sm:text-5xl">{study.headline}</h1>
          <p className="mt-6 max-w-3xl text-lg leading-relaxed text-muted-fg">{study.lead}</p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link to="/roi-calculator" className={buttonClasses('primary', 'lg')}>
              Get Free Business Analysis
            </Link>
            <SectionLink section="contact" variant="secondary" onNavigate={trackCaseStudyClick}>
              View Automation Demo
            </SectionLink>
          </div>
        </Container>
      </header>

      <Section id="problems" title="Sound Familiar?">
        <ul className="mx-auto grid max-w-4xl gap-4 sm:grid-cols-2">
          {study.problems.map((p) => (
            <li key={p} className="rounded-xl border-l-4 border-warning bg-warning-soft p-4 font-medium text-fg">
              {p}
            </li>
          ))}
        </ul>
      </Section>

      <Section id="benefits" title="What Changes" className="bg-surface-muted">
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {study.benefits.map((b) => (
            <li key={b.title}>
              <Card className="h-full text-center">
                <p className="text-3xl font-extrabold text-primary dark:text-blue-300">{figureText(b.figure)}</p>
                <h3 className="mt-1 font-bold text-fg">{b.title}</h3>
                <p className="mt-2 text-sm text-muted-fg">{b.body}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="success-story" title={study.story.title}>
        <Card className="mx-auto max-w-3xl p-8">
          <p className="leading-relaxed text-muted-fg">{study.story.body}</p>
          <figure className="mt-6 border-l-4 border-primary pl-4">
            <blockquote className="text-lg font-medium text-fg">“{study.story.quote}”</blockquote>
            <figcaption className="mt-2 text-sm text-muted-fg">{study.story.attribution}</figcaption>
          </figure>
        </Card>
      </Section>

      <Section id="workflows" title="Automated Workflows" className="bg-surface-muted">
        <TitledCardGrid items={study.workflows} columns="md:grid-cols-3" ordered />
      </Section>

      <Section id="features" title="Everything in One Place">
        <div className="grid gap-6 md:grid-cols-2">
          {[
            { title: 'Business Operations', items: study.operations },
            { title: 'Analytics & Insights', items: study.analytics },
          ].map((col) => (
            <Card key={col.title}>
              <h3 className="text-lg font-bold text-fg">{col.title}</h3>
              <ul className="mt-4 space-y-2">
                {col.items.map((i) => (
                  <li key={i} className="flex gap-2 text-fg">
                    <span aria-hidden="true" className="text-accent">
                      ✓
                    </span>
                    {i}
                  </li>
                ))}
              </ul>
            </Card>
          ))}
        </div>
      </Section>

      <Section id="process" title="Our 4-Week Process" className="bg-surface-muted">
        <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {study.process.map((p, i) => (
            <li key={p.title}>
              <Card className="h-full">
                <p className="text-sm font-semibold text-accent">Week {i + 1}</p>
                <h3 className="mt-1 text-lg font-bold text-fg">{p.title}</h3>
                <p className="mt-2 text-sm text-muted-fg">{p.body}</p>
              </Card>
            </li>
          ))}
        </ol>
      </Section>

      <CtaBand
        id="service-cta"
        title="Put your front desk on autopilot"
        body="Find out how many hours automation would save you, then see it working on your own services."
      >
        <Link to="/roi-calculator" className={buttonClasses('inverse', 'lg')}>
          Get Free Business Analysis
        </Link>
        <SectionLink section="contact" variant="ghost" className={ON_BAND_OUTLINE} onNavigate={trackCaseStudyClick}>
          View Automation Demo
        </SectionLink>
      </CtaBand>
    </article>
  );
}
