import { Card, SITE, Section } from '@site/ui';
import { services, type Service } from '../data/content';

const ICONS: Record<Service['id'], string> = {
  chatbots: 'M4 5h16v10H8l-4 4V5z M8 9h8 M8 12h5',
  workflow: 'M4 6h6v4H4z M14 14h6v4h-6z M10 8h4v8 M14 16h0',
  integration: 'M7 7h4v4H7z M13 13h4v4h-4z M11 9h4v4 M9 11v4h4',
  'ai-tools': 'M12 3l2.5 5 5.5.8-4 3.9.9 5.5L12 15.6 7.1 18.2 8 12.7 4 8.8 9.5 8z',
};

export function ServicesSection() {
  return (
    <Section
      id="services"
      eyebrow="Services & pricing"
      title="Automation for the work that eats your week"
      intro={`Every plan includes setup, training for your team and local support. Plans start at ${SITE.priceFrom}.`}
    >
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {services.map((s) => (
          <li key={s.id}>
            <Card className="flex h-full flex-col">
              <span className="inline-flex h-11 w-11 items-center justify-center rounded-xl bg-primary-soft text-primary-soft-fg" aria-hidden="true">
                <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" strokeLinecap="round">
                  <path d={ICONS[s.id]} />
                </svg>
              </span>
              <h3 className="mt-4 text-lg font-semibold text-fg">{s.title}</h3>
              <p className="mt-2 text-sm text-muted-fg">{s.summary}</p>
              <ul className="mt-4 space-y-1.5 text-sm text-fg">
                {s.points.map((p) => (
                  <li key={p} className="flex gap-2">
                    <span className="text-accent" aria-hidden="true">✓</span>
                    {p}
                  </li>
                ))}
              </ul>
              <p className="mt-auto pt-5 text-base font-bold text-fg">{s.price}</p>
            </Card>
          </li>
        ))}
      </ul>
      <p className="mt-8 rounded-xl border border-border bg-surface-muted px-5 py-4 text-center text-sm text-fg">
        <strong>Launch pricing:</strong> 20% off your first 3 months with code <strong className="font-mono">{SITE.offerCode}</strong>.
        Month-to-month, cancel any time.
      </p>
    </Section>
  );
}
