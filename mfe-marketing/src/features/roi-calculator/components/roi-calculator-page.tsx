import { Badge, Card, Container, PageHeader, Section, useScrollToTop } from '@site/ui';
import { SectionLink } from '../../../components/section-link';
import { RoiCalculator } from './roi-calculator';
import { CtaBand, ON_BAND_OUTLINE } from '../../../components/cta-band';

const STEPS = [
  {
    title: 'Count the hours',
    text: 'Add up the weekly hours your team spends on five kinds of repetitive work. We turn them into monthly hours with 4.33 weeks per month.',
  },
  {
    title: 'Price the time',
    text: 'Monthly hours times your average cost per hour is what that work costs you today, before anyone has served a customer.',
  },
  {
    title: 'Apply automation',
    text: 'Automation efficiency is the share of that work a chatbot or workflow takes over. Savings are the cost times that share, and 12 months of them make your annual savings.',
  },
];

/** /roi-calculator: hero, the calculator, how it works, and the way to the consultation. */
export function RoiCalculatorPage() {
  useScrollToTop();
  return (
    <>
      <PageHeader
        eyebrow={<Badge>Free tool · no sign-up</Badge>}
        title="AI Automation ROI Calculator"
        lead="Find out what the repetitive work in your business really costs, and how much of it AI automation can give back. Most Tri-Valley owners we work with find $2,000+ in monthly savings."
      />
      <section aria-label="Calculator" className="py-12 sm:py-16">
        <Container>
          <RoiCalculator />
        </Container>
      </section>
      <Section id="how-it-works" title="How the estimate works" intro="No black box: three steps, the same formulas for everyone." className="bg-surface-muted/60">
        <ol className="grid gap-6 md:grid-cols-3">
          {STEPS.map((s, i) => (
            <li key={s.title}>
              <Card className="h-full">
                <span className="inline-flex h-9 w-9 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-fg" aria-hidden="true">
                  {i + 1}
                </span>
                <h3 className="mt-4 text-lg font-semibold text-fg">{s.title}</h3>
                <p className="mt-2 text-sm text-muted-fg">{s.text}</p>
              </Card>
            </li>
          ))}
        </ol>
      </Section>
      <CtaBand
        id="roi-cta-heading"
        title="Turn the estimate into a plan"
        body="In a free 30-minute consultation we check these numbers against your real workflows and show which automation pays back first. Plans start at $300/month, and local businesses get 20% off the first 3 months with DANVILLE20."
      >
        <SectionLink section="contact" variant="inverse">
          Schedule Free Consultation
        </SectionLink>
        <SectionLink section="services" variant="ghost" className={ON_BAND_OUTLINE}>
          View Our Services
        </SectionLink>
      </CtaBand>
    </>
  );
}
