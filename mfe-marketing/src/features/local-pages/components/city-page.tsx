import { useNavigate } from 'react-router-dom';
import { Badge, Button, Card, Container, Section, recordEvent, track, useGoToSection, useScrollToTop } from '@site/ui';
import { useBusyAction } from '../../../lib/use-busy-action';
import type { City, CityButton } from '../data/cities';
import { TitledCardGrid } from '../../../components/titled-card-grid';
import { ILLUSTRATIVE_NOTE } from '../../../lib/illustrative';
import { CtaBand, ON_BAND_OUTLINE } from '../../../components/cta-band';

/** One layout for the four town pages, driven by a City data object. */
export function CityPage({ city }: { city: City }) {
  useScrollToTop();
  const navigate = useNavigate();
  const goToSection = useGoToSection();
  const { busyKey, busy, run } = useBusyAction();

  /**
   * Renders one data-driven button: records the click, then navigates. A button with busy wording waits for
   * the event to be recorded (bounded by recordEvent) and shows that wording meanwhile; the others go at once.
   */
  const action = (key: string, b: CityButton, variant: 'primary' | 'secondary' | 'inverse' | 'ghost' = 'primary', className?: string) => {
    const hasBusy = b.busyLabel !== undefined;
    const mine = hasBusy && busyKey === key;
    const onClick = () => {
      const event = { page: city.pageId, action: b.action };
      const go = () => {
        if ('section' in b.target) goToSection(b.target.section);
        else navigate(b.target.path);
      };
      if (hasBusy) {
        void run(key, async (signal) => {
          await recordEvent('local_page_click', event);
          if (!signal.aborted) go();
        });
      } else {
        track('local_page_click', event);
        go();
      }
    };
    return (
      <Button
        key={key}
        size="lg"
        variant={variant}
        className={className}
        onClick={onClick}
        disabled={hasBusy && busy}
        aria-busy={mine || undefined}
      >
        {mine ? b.busyLabel : b.label}
      </Button>
    );
  };

  const { hero, why, services, story, cta } = city;
  return (
    <article>
      <section aria-labelledby="city-hero-heading" className="border-b border-border bg-gradient-to-b from-primary-soft/70 to-bg">
        <Container className="py-16 sm:py-24">
          <Badge>{hero.badge}</Badge>
          <h1 id="city-hero-heading" className="mt-5 max-w-4xl text-4xl font-extrabold tracking-tight text-fg sm:text-5xl">{hero.headline}</h1>
          <p className="mt-6 max-w-3xl text-lg leading-relaxed text-muted-fg">{hero.lead}</p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            {action('hero-primary', hero.primary)}
            {action('hero-secondary', hero.secondary, 'secondary')}
          </div>
        </Container>
      </section>

      <Section id="why-choose-us" title={why.title}>
        <TitledCardGrid items={why.items} columns="md:grid-cols-3" />
      </Section>

      <Section id="local-services" title={services.title} intro={services.intro} className="bg-surface-muted">
        <div className="grid gap-6 lg:grid-cols-2">
          {services.cards.map((card, i) => (
            <Card key={card.title} className="flex h-full flex-col">
              <h3 className="text-xl font-bold text-fg">{card.title}</h3>
              <p className="mt-3 text-muted-fg">{card.body}</p>
              <ul className="mt-5 flex-1 space-y-3">
                {card.bullets.map((b) => (
                  <li key={b} className="flex gap-3 text-fg">
                    <CheckIcon />
                    <span>{b}</span>
                  </li>
                ))}
              </ul>
              <div className="mt-6">{action(`service-${i}`, card.button, i === 0 ? 'primary' : 'secondary')}</div>
            </Card>
          ))}
        </div>
      </Section>

      <section aria-labelledby="story-heading" className="py-16 sm:py-20">
        <Container>
          <Card className="grid gap-8 p-8 sm:p-10 lg:grid-cols-[3fr_2fr] lg:items-center">
            <div>
              <p className="text-sm font-semibold uppercase tracking-wider text-primary dark:text-blue-300">{story.eyebrow}</p>
              <h2 id="story-heading" className="mt-2 text-2xl font-bold text-fg sm:text-3xl">
                {story.title}
              </h2>
              <p className="mt-4 leading-relaxed text-muted-fg">{story.body}</p>
              <div className="mt-6">{action('story', story.button)}</div>
            </div>
            <ul className="space-y-3" aria-label={story.kind === 'approach' ? 'What the approach aims for' : 'Highlights'}>
              {story.highlights.map((h) => (
                <li key={h} className="rounded-xl bg-primary-soft px-4 py-3 font-semibold text-primary-soft-fg">
                  {h}
                </li>
              ))}
            </ul>
            <p className="text-xs text-muted-fg lg:col-start-2">{ILLUSTRATIVE_NOTE}</p>
          </Card>
        </Container>
      </section>

      <CtaBand id="cta-heading" title={cta.title} body={cta.body}>
        {action('cta-0', cta.buttons[0], 'inverse')}
        {action('cta-1', cta.buttons[1], 'ghost', ON_BAND_OUTLINE)}
      </CtaBand>
    </article>
  );
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 20 20" className="mt-0.5 h-5 w-5 flex-none text-accent" fill="currentColor" aria-hidden="true">
      <path
        fillRule="evenodd"
        d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0z"
        clipRule="evenodd"
      />
    </svg>
  );
}
