import { Link } from 'react-router-dom';
import { Badge, Card, Container, Section } from '@site/ui';
import type { ProjectStudy } from '../data/case-studies';
import { TitledCardGrid } from '../../../components/titled-card-grid';
import { CtaBand, ON_BAND_OUTLINE } from '../../../components/cta-band';
import { SectionLink } from '../../../components/section-link';
import { ILLUSTRATIVE_NOTE } from '../../../lib/illustrative';
import { trackCaseStudyClick } from '../lib/track-case-study-click';
import { figureText } from '../../../lib/format';

/** One layout for the project pages (restaurant order bot, retail customer service). */
export function ProjectPage({ study }: { study: ProjectStudy }) {
  return (
    <article>
      <header className="border-b border-border bg-gradient-to-b from-primary-soft/70 to-bg">
        <Container className="py-14 sm:py-20">
          <Link to="/" className="text-sm font-semibold text-primary hover:underline dark:text-blue-300">
            ← Back to Home
          </Link>
          <div className="mt-6">
            <Badge>{study.eyebrow}</Badge>
          </div>
          <h1 className="mt-4 max-w-4xl text-4xl font-extrabold tracking-tight text-fg sm:text-5xl">{study.headline}</h1>
          <p className="mt-6 max-w-3xl text-lg leading-relaxed text-muted-fg">{study.lead}</p>
          <dl className="mt-10 grid max-w-3xl grid-cols-3 gap-4">
            {study.heroStats.map((s) => (
              <div key={s.label} className="rounded-xl border border-border bg-surface p-3 text-center sm:p-4">
                <dt className="order-2 text-sm text-muted-fg">{s.label}</dt>
                <dd className="text-xl font-extrabold text-primary min-[380px]:text-2xl sm:text-3xl dark:text-blue-300">{figureText(s.figure)}</dd>
              </div>
            ))}
          </dl>
        </Container>
      </header>

      <Section id="problem" title={study.problem.title} intro={study.problem.body}>
        <ul className="mx-auto grid max-w-4xl gap-4 sm:grid-cols-3">
          {study.problem.points.map((p) => (
            <li key={p} className="rounded-xl border-l-4 border-warning bg-warning-soft p-4 font-medium text-fg">
              {p}
            </li>
          ))}
        </ul>
      </Section>

      <Section id="benefits" title="Benefits" className="bg-surface-muted">
        <TitledCardGrid items={study.benefits} columns="sm:grid-cols-2 lg:grid-cols-4" />
      </Section>

      <Section id="features" title="Features">
        <div className="grid gap-10 lg:grid-cols-[3fr_2fr]">
          <ul className="grid gap-3 sm:grid-cols-2">
            {study.features.map((f) => (
              <li key={f} className="flex gap-3 rounded-lg border border-border bg-surface p-3 text-fg">
                <span aria-hidden="true" className="font-bold text-accent">
                  ✓
                </span>
                {f}
              </li>
            ))}
          </ul>
          <Card>
            <h3 className="text-lg font-bold text-fg">{study.sampleResults.title}</h3>
            <p className="mt-1 text-sm text-muted-fg">{ILLUSTRATIVE_NOTE}</p>
            <table className="mt-4 w-full text-left text-sm">
              <thead>
                <tr className="border-b border-border text-muted-fg">
                  <th scope="col" className="py-2 font-semibold">Measure</th>
                  <th scope="col" className="py-2 font-semibold">Before</th>
                  <th scope="col" className="py-2 font-semibold">After</th>
                </tr>
              </thead>
              <tbody>
                {study.sampleResults.rows.map((r) => (
                  <tr key={r.label} className="border-b border-border last:border-0">
                    <th scope="row" className="py-2 pr-2 font-medium text-fg">{r.label}</th>
                    <td className="py-2 text-muted-fg">{r.before}</td>
                    <td className="py-2 font-semibold text-accent">{r.after}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        </div>
      </Section>

      <CtaBand id="project-cta" title={study.cta.title} body={study.cta.body}>
        <SectionLink section="contact" variant="inverse" onNavigate={trackCaseStudyClick}>
          Schedule Free Consultation
        </SectionLink>
        <SectionLink section="services" variant="ghost" className={ON_BAND_OUTLINE} onNavigate={trackCaseStudyClick}>
          View All Services
        </SectionLink>
      </CtaBand>
    </article>
  );
}
