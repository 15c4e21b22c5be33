import { NotFound } from '@site/ui';
import { cities } from '../data/cities';
import { CityPage } from './city-page';

/** A town page by its slug: the route table holds only the metadata (city-meta.ts); the copy loads with this page. */
export function CityRoute({ slug }: { slug: string }) {
  const city = cities.find((c) => c.slug === slug);
  return city ? <CityPage city={city} /> : <NotFound />;
}
