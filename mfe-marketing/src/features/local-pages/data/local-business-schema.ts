import { SITE, openingHoursSchema } from '@site/ui';

type Geo = { latitude: number; longitude: number };

/** Radius of the service area around each town's centre (spec: 5000 m). */
export const TOWN_SERVICE_RADIUS_M = 5000;
/** Radius of the Tri-Valley region the Danville page also describes (spec: 50000 m). */
export const REGION_RADIUS_M = 50000;

const address = { '@type': 'PostalAddress', ...SITE.address };
/** The hours visitors read on every page (SITE.hours), as structured data spells them: one value, SITE.openingHours. */
const openingHours = openingHoursSchema(SITE.openingHours);

/**
 * Local-business structured data of one town page (spec section 3). Telephone, email, address and opening hours
 * come from the one site-contact config; only the town's own facts are passed in.
 */
export function localBusinessSchema(town: { town: string; path: string; description: string; geo: Geo }) {
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    name: `${SITE.name} - ${town.town}`,
    description: town.description,
    url: town.path,
    telephone: SITE.phone,
    email: SITE.email,
    address,
    geo: { '@type': 'GeoCoordinates', ...town.geo },
    areaServed: { '@type': 'City', name: `${town.town}, CA` },
    serviceArea: {
      '@type': 'GeoCircle',
      geoMidpoint: { '@type': 'GeoCoordinates', ...town.geo },
      geoRadius: TOWN_SERVICE_RADIUS_M,
    },
    priceRange: '$$',
    openingHours,
  };
}

/** The regional schema carried by the Danville page: the business as it serves the whole Tri-Valley. */
export function regionalSchema(centre: Geo, path: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    name: SITE.name,
    description: SITE.tagline,
    url: path,
    telephone: SITE.phone,
    email: SITE.email,
    address,
    areaServed: SITE.towns.map((t) => ({ '@type': 'City', name: `${t.name}, CA` })),
    serviceArea: {
      '@type': 'GeoCircle',
      geoMidpoint: { '@type': 'GeoCoordinates', ...centre },
      geoRadius: REGION_RADIUS_M,
    },
    priceRange: '$$',
    openingHours,
  };
}
