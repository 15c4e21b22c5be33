import { Link } from 'react-router-dom';
import { Badge, Button, Card, Container, PageHeader, SITE, track, useGoToSection } from '@site/ui';
import { cities } from '../data/cities';

/** /local-services: the four town cards and the two ways onward. */
export function LocalServicesPage() {
  const goToSection = useGoToSection();
  return (
    <>
      <PageHeader
        title="Local AI Automation Services"
        lead={`We build AI automation for businesses in Danville, San Ramon, Walnut Creek and Pleasanton. Plans start at ${SITE.priceFrom}; pick your town to see what we build there.`}
      >
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <Button
            size="lg"
            onClick={() => {
              track('local_services_click', { action: 'get_launch_pricing' });
              goToSection('contact');
            }}
          >
            Get Launch Pricing
          </Button>
          <Button
            size="lg"
            variant="secondary"
            onClick={() => {
              track('local_services_click', { action: 'see_our_approach' });
              goToSection('projects');
            }}
          >
            See Our Approach
          </Button>
        </div>
      </PageHeader>
      <Container className="py-12 sm:py-16">
        <h2 className="sr-only">Towns we serve</h2>
        <ul className="grid gap-6 md:grid-cols-2">
          {cities.map((c) => (
            <li key={c.slug}>
              <Card className="relative flex h-full flex-col transition-shadow focus-within:ring-2 focus-within:ring-ring hover:shadow-md">
                <div className="flex items-start justify-between gap-4">
                  <h3 className="text-2xl font-bold text-fg">
                    <Link to={c.meta.path} className="after:absolute after:inset-0 after:rounded-2xl focus-visible:outline-none">
                      {c.town}
                    </Link>
                  </h3>
                  <Badge>{c.indexCard.badge}</Badge>
                </div>
                <p className="mt-1 text-sm font-semibold text-accent">{c.indexCard.industries}</p>
                <p className="mt-4 flex-1 leading-relaxed text-muted-fg">{c.indexCard.summary}</p>
                <p className="mt-5 text-sm font-semibold text-primary dark:text-blue-300" aria-hidden="true">
                  See {c.town} services →
                </p>
              </Card>
            </li>
          ))}
        </ul>
      </Container>
    </>
  );
}
