import { Link } from 'react-router-dom';
import { Badge, Card, Section, buttonClasses, cn } from '@site/ui';
import { ILLUSTRATIVE_NOTE } from '../../../lib/illustrative';
import { projects } from '../data/content';

export function ProjectsSection() {
  return (
    <Section
      id="projects"
      eyebrow="Projects"
      title="Automation we design for local businesses"
      intro={`Three projects, three kinds of business. Each page shows the problem, the solution and the numbers it aims for. ${ILLUSTRATIVE_NOTE}`}
    >
      <ul className="grid gap-6 lg:grid-cols-3">
        {projects.map((p) => (
          <li key={p.slug}>
            <Card className={cn('flex h-full flex-col', p.featured && 'border-primary ring-1 ring-primary')}>
              {p.featured && <Badge className="mb-3 self-start">Featured project</Badge>}
              <h3 className="text-xl font-semibold text-fg">{p.title}</h3>
              <p className="mt-2 text-sm text-muted-fg">{p.description}</p>
              <ul className="mt-4 flex flex-wrap gap-2" aria-label="Technologies">
                {p.technologies.map((t) => (
                  <li key={t} className="rounded-md bg-surface-muted px-2 py-1 text-xs font-medium text-fg">
                    {t}
                  </li>
                ))}
              </ul>
              <Link to={`/${p.slug}`} className={buttonClasses(p.featured ? 'primary' : 'secondary', 'md', 'mt-6 self-start')}>
                View Project
                <span className="sr-only">: {p.title}</span>
              </Link>
            </Card>
          </li>
        ))}
      </ul>
    </Section>
  );
}
