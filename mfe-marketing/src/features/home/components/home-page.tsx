import { Section, usePageMeta } from '@site/ui';
import { homeMeta } from '../data/meta';

/** The home page frame: the six anchored sections (content lands with the home-page issue). */
export function HomePage() {
  usePageMeta(homeMeta.title, homeMeta.description);
  return (
    <>
      <section id="home" aria-labelledby="home-heading" className="bg-gradient-to-b from-primary-soft/60 to-bg py-20">
        <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
          <h1 id="home-heading" className="max-w-3xl text-4xl font-extrabold tracking-tight sm:text-6xl">
            AI automation for East Bay small businesses
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-muted-fg">
            We build AI chatbots and automated workflows for restaurants, shops, service companies and manufacturers in Danville,
            San Ramon, Walnut Creek and Pleasanton. Plans from $300/month.
          </p>
        </div>
      </section>
      <Section id="services" title="Services" />
      <Section id="industry-insights" title="Industry Insights" />
      <Section id="projects" title="Projects" />
      <Section id="testimonials" title="What Local Owners Say" />
      <Section id="roi-calculator" title="ROI Calculator" />
      <Section id="contact" title="Contact Us" />
    </>
  );
}
