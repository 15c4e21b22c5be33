import { Section } from '@site/ui';
import { testimonials } from '../data/content';

export function TestimonialsSection() {
  return (
    <Section id="testimonials" eyebrow="Testimonials" title="What local owners say" className="bg-surface-muted/60">
      <ul className="grid gap-6 md:grid-cols-2">
        {testimonials.map((t) => (
          <li key={t.name}>
            <figure className="flex h-full flex-col rounded-2xl border border-border bg-surface p-6 shadow-sm">
              <p className="text-sm font-bold uppercase tracking-wide text-accent">{t.result}</p>
              <blockquote className="mt-3 flex-1 text-fg">“{t.quote}”</blockquote>
              <figcaption className="mt-4 text-sm">
                <span className="font-semibold text-fg">{t.name}</span>
                <span className="text-muted-fg"> · {t.business}</span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </Section>
  );
}
