import { Card, cn } from '@site/ui';

export type TitledItem = { title: string; body: string };

/** A grid of cards, each a heading and a paragraph: benefits, reasons, challenges, workflows. */
export function TitledCardGrid({
  items,
  columns,
  ordered = false,
  cardClassName,
}: {
  items: readonly TitledItem[];
  /** Grid columns per breakpoint, e.g. `md:grid-cols-3`. */
  columns: string;
  /** Numbered steps are an ordered list for screen readers. */
  ordered?: boolean;
  cardClassName?: string;
}) {
  const List = ordered ? 'ol' : 'ul';
  return (
    <List className={cn('grid gap-6', columns)}>
      {items.map((item) => (
        <li key={item.title}>
          <Card className={cn('h-full', cardClassName)}>
            <h3 className="text-lg font-bold text-fg">{item.title}</h3>
            <p className="mt-2 leading-relaxed text-muted-fg">{item.body}</p>
          </Card>
        </li>
      ))}
    </List>
  );
}
