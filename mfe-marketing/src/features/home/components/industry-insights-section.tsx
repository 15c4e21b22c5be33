import { Link } from 'react-router-dom';
import { Badge, Card, Section, buttonClasses } from '@site/ui';
import { ILLUSTRATIVE_NOTE } from '../../../lib/illustrative';
import { industryInsights } from '../data/content';
import { figureText } from '../../../lib/format';

export function IndustryInsightsSection() {
  return (
    <Section
      id="industry-insights"
      eyebrow="Industry insights"
      title="What automation changes in your industry"
      intro={`Solution designs for typical businesses in our four towns, with the results automation like this can deliver. ${ILLUSTRATIVE_NOTE}`}
      className="bg-surface-muted/60"
    >
      <ul className="grid gap-6 md:grid-cols-3">
        {industryInsights.map((i) => (
          <li key={i.href}>
            <Card className="flex h-full flex-col">
              <div className="flex flex-wrap gap-2">
                <Badge>{i.industry}</Badge>
                <Badge className="bg-surface-muted text-muted-fg">{i.town}</Badge>
              </div>
              <h3 className="mt-4 text-lg font-semibold text-fg">{i.title}</h3>
              <p className="mt-2 text-sm text-muted-fg">{i.summary}</p>
              <dl className="mt-5 grid grid-cols-2 gap-3">
                {i.stats.map((s) => (
                  <div key={s.label} className="rounded-lg bg-accent-soft p-3">
                    <dt className="sr-only">{s.label}</dt>
                    <dd className="text-lg font-bold text-accent">{figureText(s.value)}</dd>
                    <dd className="text-xs text-fg">{s.label}</dd>
                  </div>
                ))}
              </dl>
              <Link
                to={i.href}
                className={buttonClasses('secondary', 'md', 'mt-6 self-start')}
                aria-describedby={undefined}
              >
                Explore Solution Design
                <span className="sr-only">: {i.industry.toLowerCase()} in {i.town}</span>
              </Link>
            </Card>
          </li>
        ))}
      </ul>
    </Section>
  );
}
