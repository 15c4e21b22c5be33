import { useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { BLOG_CATEGORIES, slugify } from '@site/contracts/posts-rules';
import { Button, Container, PageHeader, cn, useValueTypedBeforeHydration } from '@site/ui';
import { BlogCta } from '../../../components/blog-cta';
import { EmptyState, GridSkeleton, LoadError } from '../../../components/load-state';
import { PagedPostGrid } from '../../../components/paged-post-grid';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { usePostList } from '../../../lib/use-post-list';

/** How long typing pauses before the search goes to the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * /blog: search and category toggles (both mirrored in the URL query, both answered by the server's search),
 * 'Showing X of Y articles', the card grid a page at a time.
 */
export function BlogPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const typedQ = useDebouncedValue(q.trim(), SEARCH_DEBOUNCE_MS);
  // Clearing the box shows every post at once; only typing waits for a pause.
  const searchQ = q.trim() ? typedQ : '';
  const filtered = Boolean(q.trim() || category);
  const list = usePostList({ q: searchQ, category }, { keepPrevious: true });
  // Every published post, for 'of Y' and 'No posts yet' (the same query as the unfiltered list: one request, one cache).
  const all = usePostList({ q: '', category: '' });
  const shown = list.posts;
  const error = list.error ?? all.error;

  const update = (next: { q?: string; category?: string }, replace: boolean) => {
    const merged = { q, category, ...next };
    const search = new URLSearchParams();
    if (merged.q) search.set('q', merged.q);
    if (merged.category) search.set('category', merged.category);
    setParams(search, { replace, preventScrollReset: true });
  };

  // A search typed into the server-rendered box before this code ran is searched for once hydrated.
  const searchBox = useRef<HTMLInputElement>(null);
  useValueTypedBeforeHydration(searchBox, q, (typed) => update({ q: typed }, true));

  const retry = () => {
    if (list.error) list.retry();
    if (all.error) all.retry();
  };

  return (
    <>
      <PageHeader
        title="AI Automation Blog"
        lead="Practical guides, local case studies and industry insights on AI chatbots and business automation for East Bay business owners."
      />
      <Container className="py-10 sm:py-14">
        <div className="mb-8 space-y-5" role="search">
          <label htmlFor="blog-search" className="sr-only">
            Search articles
          </label>
          <div className="relative max-w-xl">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-muted-fg" fill="none" stroke="currentColor" strokeWidth="2">
              <circle cx="9" cy="9" r="6" />
              <path d="m14 14 4 4" strokeLinecap="round" />
            </svg>
            <input
              ref={searchBox}
              id="blog-search"
              type="search"
              value={q}
              onChange={(e) => update({ q: e.target.value }, true)}
              placeholder="Search articles..."
              className="w-full rounded-lg border border-border bg-surface py-2.5 pl-10 pr-3 text-fg placeholder:text-muted-fg focus:border-ring focus:outline-none focus:ring-2 focus:ring-ring/40"
            />
          </div>
          <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Filter by category">
            {BLOG_CATEGORIES.map((name) => {
              const slug = slugify(name);
              const active = category === slug;
              return (
                <button
                  key={slug}
                  type="button"
                  aria-pressed={active}
                  onClick={() => update({ category: active ? '' : slug }, false)}
                  className={cn(
                    'cursor-pointer rounded-full border px-4 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2',
                    active
                      ? 'border-primary bg-primary text-primary-fg'
                      : 'border-border bg-surface text-fg hover:bg-surface-muted',
                  )}
                >
                  {name}
                </button>
              );
            })}
            {filtered && (
              <Button variant="ghost" size="sm" onClick={() => update({ q: '', category: '' }, false)}>
                Clear all filters
              </Button>
            )}
          </div>
          <p className="min-h-5 text-sm text-muted-fg" aria-live="polite">
            {shown && all.total !== null && `Showing ${shown.length} of ${all.total} articles`}
          </p>
        </div>

        {error && <div className="mb-6"><LoadError message={error} onRetry={retry} /></div>}

        {shown === null ? (
          list.loading ? <GridSkeleton /> : null
        ) : all.total === 0 ? (
          <EmptyState title="No posts yet">New articles are on their way. Check back soon.</EmptyState>
        ) : shown.length === 0 ? (
          <EmptyState title="No posts found">
            No articles match your search or filter. Try another word, or clear the filters above.
          </EmptyState>
        ) : (
          <div aria-busy={list.stale} className={cn('transition-opacity', list.stale && 'opacity-60')}>
            <PagedPostGrid posts={shown} total={list.total} totalIsLowerBound={list.totalIsLowerBound} hasMore={list.hasMore} loadingMore={list.loadingMore} onLoadMore={list.loadMore} />
          </div>
        )}

        <BlogCta />
      </Container>
    </>
  );
}
