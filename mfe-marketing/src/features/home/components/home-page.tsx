import type { ReactNode } from 'react';
import { HydrateWhenVisible, Section } from '@site/ui';
import { useEngagementTracking } from '../hooks/use-engagement-tracking';
import { Hero } from './hero';
import { IndustryInsightsSection } from './industry-insights-section';
import { ProjectsSection } from './projects-section';
import { ServicesSection } from './services-section';
import { TestimonialsSection } from './testimonials-section';

/**
 * The home page with its anchored sections. The calculator and the contact section belong to their own
 * features; the app composes them in (features do not import each other).
 */
export function HomePage({ calculator, contact }: { calculator: ReactNode; contact: ReactNode }) {
  useEngagementTracking('home');
  // Below the hero, each section comes to life on its own when it nears the screen or the browser is idle: the page's
  // hydration is the hero's, not the whole page's in one task.
  return (
    <>
      <Hero />
      <HydrateWhenVisible>
        <ServicesSection />
      </HydrateWhenVisible>
      <HydrateWhenVisible>
        <IndustryInsightsSection />
      </HydrateWhenVisible>
      <HydrateWhenVisible>
        <ProjectsSection />
      </HydrateWhenVisible>
      <HydrateWhenVisible>
        <TestimonialsSection />
      </HydrateWhenVisible>
      <HydrateWhenVisible>
        <Section
          id="roi-calculator"
          renderAfterLoad
          eyebrow="ROI calculator"
          title="What is your busywork costing you?"
          intro="Move the sliders to match your week. Results appear when you press Calculate ROI, and you can share the link with your partner or accountant."
        >
          {calculator}
        </Section>
      </HydrateWhenVisible>
      <HydrateWhenVisible>{contact}</HydrateWhenVisible>
    </>
  );
}
