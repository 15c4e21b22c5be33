import { Card, ExternalLink, SITE, Section, buttonClasses } from '@site/ui';
import { LINKS } from '../../../config/links';
import { ContactForm } from './contact-form';

/** The home page's #contact: the form, business hours, and the external scheduling pages. */
export function ContactSection() {
  return (
    <Section
      id="contact"
      renderAfterLoad
      eyebrow="Free 30-minute consultation"
      title="Let's Talk About Your Business"
      intro="Tell us which tasks eat up your week. We'll reply within one business day with a plain-English plan and a fixed monthly price: no obligation, no jargon."
      className="bg-surface-muted/60"
    >
      <div className="grid gap-8 lg:grid-cols-[1fr_22rem]">
        <Card className="p-6 sm:p-8">
          <h3 className="mb-6 text-xl font-semibold text-fg">Send us a message</h3>
          <ContactForm />
        </Card>
        <div className="space-y-6">
          <Card>
            <h3 className="text-lg font-semibold text-fg">Book a time directly</h3>
            <p className="mt-2 text-sm text-muted-fg">
              Prefer to pick a slot yourself? Both open in a new tab.
            </p>
            <div className="mt-4 flex flex-col gap-3">
              <ExternalLink href={LINKS.booking} className={buttonClasses('primary', 'md', 'w-full')}>
                Book a Free Consultation
              </ExternalLink>
              <ExternalLink href={LINKS.calendar} className={buttonClasses('secondary', 'md', 'w-full')}>
                View Our Calendar
              </ExternalLink>
            </div>
          </Card>
          <Card>
            <h3 className="text-lg font-semibold text-fg">Business hours</h3>
            <p className="mt-2 text-2xl font-bold text-fg">{SITE.hours}</p>
            <p className="mt-1 text-sm text-muted-fg">Pacific Time. Messages sent after hours are answered the next business morning.</p>
            <dl className="mt-5 space-y-3 text-sm">
              <div>
                <dt className="font-medium text-muted-fg">Phone</dt>
                <dd>
                  <a href={SITE.phoneHref} className="font-semibold text-primary underline-offset-4 hover:underline dark:text-blue-300">
                    {SITE.phone}
                  </a>
                </dd>
              </div>
              <div>
                <dt className="font-medium text-muted-fg">Email</dt>
                <dd>
                  <a href={`mailto:${SITE.email}`} className="font-semibold text-primary underline-offset-4 hover:underline dark:text-blue-300">
                    {SITE.email}
                  </a>
                </dd>
              </div>
              <div>
                <dt className="font-medium text-muted-fg">Office</dt>
                <dd className="text-fg">
                  {SITE.address.streetAddress}, {SITE.address.addressLocality}, {SITE.address.addressRegion} {SITE.address.postalCode}
                </dd>
              </div>
            </dl>
          </Card>
        </div>
      </div>
    </Section>
  );
}
