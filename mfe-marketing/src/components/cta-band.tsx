import type { ReactNode } from 'react';
import { Container } from '@site/ui';

/** Classes of a secondary action on the blue band: white outline on the primary colour. */
export const ON_BAND_OUTLINE = 'border border-white/70 bg-transparent text-white hover:bg-white/10';

/** The closing call-to-action band of a page: a heading, a sentence and its actions, on the primary colour. */
export function CtaBand({ id, title, body, children }: { id: string; title: ReactNode; body: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="bg-primary py-16 text-primary-fg">
      <Container className="text-center">
        <h2 id={id} className="text-3xl font-bold">
          {title}
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-blue-100">{body}</p>
        <div className="mt-8 flex flex-col flex-wrap justify-center gap-3 sm:flex-row">{children}</div>
      </Container>
    </section>
  );
}
