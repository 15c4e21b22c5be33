import { Link } from 'react-router-dom';
import { Card, Container, PageHeader, usePageMeta } from '@site/ui';
import { cities, localServicesMeta } from '../data/cities';

export function LocalServicesPage() {
  usePageMeta(localServicesMeta.title, localServicesMeta.description);
  return (
    <>
      <PageHeader title="Local AI Automation Services" lead="Pick your town to see what we build for businesses there." />
      <Container className="grid gap-6 py-12 sm:grid-cols-2">
        {cities.map((c) => (
          <Card key={c.slug}>
            <h2 className="text-xl font-bold">
              <Link to={c.meta.path} className="hover:underline">
                {c.town}
              </Link>
            </h2>
          </Card>
        ))}
      </Container>
    </>
  );
}
