import { Link } from 'react-router-dom';
import { Container, SITE } from '@site/ui';
import { NAV_ITEMS } from '../../../config/navigation';
import { NavLink } from './nav-link';

const footerLink = 'text-sm text-muted-fg hover:text-fg hover:underline';

export function Footer() {
  return (
    <footer className="render-near-screen border-t border-border bg-surface [contain-intrinsic-size:auto_600px]">
      <Container className="grid gap-10 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="font-bold text-fg">{SITE.name}</p>
          <p className="mt-2 text-sm text-muted-fg">{SITE.tagline}.</p>
          <p className="mt-4 rounded-lg bg-primary-soft p-3 text-sm text-primary-soft-fg">
            Launch offer: 20% off your first 3 months with code <strong>{SITE.offerCode}</strong>. Plans from {SITE.priceFrom}.
          </p>
        </div>
        <nav aria-label="Footer">
          <h2 className="text-sm font-semibold text-fg">Explore</h2>
          <ul className="mt-3 space-y-2">
            {NAV_ITEMS.map((item) => (
              <li key={item.label}>
                <NavLink item={item} className={footerLink} />
              </li>
            ))}
            <li>
              <Link to="/case-studies/restaurant-automation" className={footerLink}>
                Restaurant case study
              </Link>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold text-fg">Service areas</h2>
          <ul className="mt-3 space-y-2">
            <li>
              <Link to="/local-services" className={footerLink}>
                All service areas
              </Link>
            </li>
            {SITE.towns.map((t) => (
              <li key={t.path}>
                <Link to={t.path} className={footerLink}>
                  {t.name}
                </Link>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold text-fg">Contact</h2>
          <ul className="mt-3 space-y-2 text-sm text-muted-fg">
            <li>
              <a href={SITE.phoneHref} className={footerLink}>
                {SITE.phone}
              </a>
            </li>
            <li>
              <a href={`mailto:${SITE.email}`} className={footerLink}>
                {SITE.email}
              </a>
            </li>
            <li>Business hours: {SITE.hours}</li>
          </ul>
        </div>
      </Container>
      <div className="border-t border-border py-4 text-center text-xs text-muted-fg">
        © {new Date().getFullYear()} {SITE.name}. Serving Danville, San Ramon, Walnut Creek and Pleasanton, CA.
      </div>
    </footer>
  );
}
