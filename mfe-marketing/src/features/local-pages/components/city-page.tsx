import { PageHeader, usePageMeta, useScrollToTop } from '@site/ui';
import type { City } from '../data/cities';

/** One layout for the four town pages, driven by a City data object. */
export function CityPage({ city }: { city: City }) {
  usePageMeta(city.meta.title, city.meta.description);
  useScrollToTop();
  return <PageHeader title={city.headline} />;
}
