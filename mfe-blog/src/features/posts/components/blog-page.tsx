import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { BLOG_CATEGORIES, postMatches, slugify } from '@site/contracts/posts';
import { Button, Container, PageHeader, cn, usePageMeta } from '@site/ui';
import { BlogCta } from '../../../components/blog-cta';
import { EmptyState, GridSkeleton, LoadError } from '../../../components/load-state';
import { PostGrid } from '../../../components/post-card';
import { usePublishedPosts } from '../../../lib/use-published-posts';
import { blogMeta } from '../data/meta';

/** /blog: search, category toggles (both mirrored in the URL query), counts and the card grid. */
export function BlogPage() {
  usePageMeta(blogMeta.title, blogMeta.description);
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const { posts, loading, error, retry } = usePublishedPosts();

  const update = (next: { q?: string; category?: string }, replace: boolean) => {
    const merged = { q, category, ...next };
    const search = new URLSearchParams();
    if (merged.q) search.set('q', merged.q);
    if (merged.category) search.set('category', merged.category);
    setParams(search, { replace, preventScrollReset: true });
  };

  const visible = useMemo(
    () => (posts ?? []).filter((p) => (!category || p.categorySlug === category) && postMatches(p, q)),
    [posts, q, category],
  );
  const filtered = Boolean(q.trim() || category);

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
          {posts && (
            <p className="text-sm text-muted-fg" aria-live="polite">
              Showing {visible.length} of {posts.length} articles
            </p>
          )}
        </div>

        {error && <div className="mb-6"><LoadError message={error} onRetry={retry} /></div>}

        {posts === null ? (
          loading ? <GridSkeleton /> : null
        ) : posts.length === 0 ? (
          <EmptyState title="No posts yet">New articles are on their way. Check back soon.</EmptyState>
        ) : visible.length === 0 ? (
          <EmptyState title="No posts found">
            No articles match your search or filter. Try another word, or clear the filters above.
          </EmptyState>
        ) : (
          <PostGrid posts={visible} />
        )}

        <BlogCta />
      </Container>
    </>
  );
}
