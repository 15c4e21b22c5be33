import { Section } from '@site/ui';
import { ILLUSTRATIVE_NOTE } from '../../../lib/illustrative';
import { testimonials } from '../data/content';

/** Outcome stories, labelled as the illustrative scenarios they are (no invented names presented as clients). */
export function TestimonialsSection() {
  return (
    <Section
      id="testimonials"
      eyebrow="Example outcomes"
      title="What automation can change for a local owner"
      intro={ILLUSTRATIVE_NOTE}
      className="bg-surface-muted/60"
    >
      <ul className="grid gap-6 md:grid-cols-2">
        {testimonials.map((t) => (
          <li key={t.business}>
            <figure className="flex h-full flex-col rounded-2xl border border-border bg-surface p-6 shadow-sm">
              <p className="text-sm font-bold uppercase tracking-wide text-accent">{t.result}</p>
              <blockquote className="mt-3 flex-1 text-fg">“{t.quote}”</blockquote>
              <figcaption className="mt-4 text-sm text-muted-fg">Scenario: {t.business}</figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </Section>
  );
}
