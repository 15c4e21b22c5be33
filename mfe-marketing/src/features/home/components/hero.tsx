import { Button, ButtonLink, SITE, useGoToSection } from '@site/ui';
import { useContactDraft } from '../../../lib/contact-draft';
import { DISCOUNT_DRAFT } from '../data/content';
import { figureText } from '../../../lib/format';

const HIGHLIGHTS = [
  { value: '40%', label: 'lower operating costs' },
  { value: '$2,000+', label: 'saved per month' },
  { value: '$300', label: 'per month to start' },
];

export function Hero() {
  const goToSection = useGoToSection();
  const prefill = useContactDraft((s) => s.prefill);
  const claimDiscount = () => {
    prefill(DISCOUNT_DRAFT);
    goToSection('contact');
  };
  return (
    <section id="home" aria-labelledby="home-heading" className="relative overflow-hidden bg-gradient-to-b from-primary-soft/70 to-bg">
      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[1.4fr_1fr] lg:items-center lg:px-8">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wider text-primary dark:text-blue-300">
            Danville · San Ramon · Walnut Creek · Pleasanton
          </p>
          <h1 id="home-heading" className="mt-3 text-4xl font-extrabold tracking-tight text-fg sm:text-5xl lg:text-6xl">
            AI automation that pays for itself, built for Tri-Valley businesses
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-muted-fg">
            We set up AI chatbots and automated workflows for local restaurants, shops, service companies and manufacturers, so
            orders, bookings, invoices and follow-ups happen without you. Our clients cut costs by 40% and save $2,000+ every
            month, on plans from {SITE.priceFrom}.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Button size="lg" onClick={() => goToSection('contact')}>
              Schedule Free Consultation
            </Button>
            <ButtonLink to="/roi-calculator" size="lg" variant="secondary">
              Calculate Your ROI
            </ButtonLink>
          </div>
          <p className="mt-4 text-sm text-muted-fg">Free 30-minute call · {SITE.hours} · No long-term contract</p>
        </div>
        <div className="space-y-4">
          <div className="rounded-2xl border border-accent/30 bg-accent-soft p-6 shadow-sm">
            <p className="text-sm font-semibold uppercase tracking-wider text-accent">Local launch offer</p>
            <p className="mt-2 text-2xl font-bold text-fg">20% off your first 3 months</p>
            <p className="mt-1 text-sm text-muted-fg">
              For founding customers in the Tri-Valley. Use code <strong className="font-mono text-fg">{SITE.offerCode}</strong>.
            </p>
            <Button className="mt-4 w-full" variant="primary" onClick={claimDiscount}>
              Claim {SITE.offerCode} Discount
            </Button>
          </div>
          <dl className="grid grid-cols-3 gap-3">
            {HIGHLIGHTS.map((h) => (
              <div key={h.label} className="rounded-xl border border-border bg-surface p-3 text-center">
                <dt className="sr-only">{h.label}</dt>
                <dd className="text-xl font-extrabold text-fg sm:text-2xl">{figureText(h.value)}</dd>
                <dd className="mt-1 text-xs text-muted-fg" aria-hidden="true">
                  {h.label}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      </div>
    </section>
  );
}
