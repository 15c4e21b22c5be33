import { Link, useParams } from 'react-router-dom';
import { BLOG_ROUTES } from '@site/contracts/blog-routes';
import { categoryNameForSlug, titleCaseSlug } from '@site/contracts/posts-rules';
import { SITE_NAME } from '@site/contracts/site';
import { buttonClasses, Container, type PageHead, PageHeader, useNotFoundSignal, usePageHead } from '@site/ui';
import { BlogCta } from '../../../components/blog-cta';
import { EmptyState, GridSkeleton, LoadError } from '../../../components/load-state';
import { PagedPostGrid } from '../../../components/paged-post-grid';
import { usePostList } from '../../../lib/use-post-list';
import { categoryPageHead } from '../data/category-head';

export { titleCaseSlug };

/** The spec's words for a category with nothing to read. */
export const NO_POSTS_IN_CATEGORY = 'No posts in this category';

const CATEGORY_NOT_FOUND_HEAD: PageHead = { title: `${NO_POSTS_IN_CATEGORY} | ${SITE_NAME}`, noindex: true };

/**
 * /blog/category/:category: the published posts of one category (the server filters). The heading is the category's
 * real name (from its posts, or the offered categories); Title Case of the slug only when no category has that slug.
 * A category without a published post (unknown, or drafts only) is not found, as an unknown post is: the server
 * answers it 404 and renders that state (`notFound`); in the browser an empty first page shows the same.
 */
export function CategoryPage({ notFound = false }: { notFound?: boolean }) {
  const { category = '' } = useParams();
  const slug = category.toLowerCase();
  const { posts, total, loading, error, retry, hasMore, loadingMore, loadMore } = usePostList({ q: '', category: slug }, { enabled: !notFound });
  const name = categoryNameForSlug(category, posts?.map((p) => p.category));
  const empty = notFound || posts?.length === 0;
  // Once the posts are here, so the name is the category's real one: the head the server wrote (route table's `head`).
  usePageHead(empty ? CATEGORY_NOT_FOUND_HEAD : posts ? categoryPageHead(slug, name) : undefined);
  useNotFoundSignal(empty);

  const count = empty ? 0 : (total ?? 0);
  return (
    <>
      <PageHeader
        title={name}
        eyebrow={
          <Link to={BLOG_ROUTES.home} className="inline-flex items-center gap-1 text-sm font-semibold text-primary hover:underline dark:text-blue-300">
            <span aria-hidden="true">←</span> Back to Blog
          </Link>
        }
        lead={empty || total !== null ? (count > 0 ? `Discover ${count} ${count === 1 ? 'article' : 'articles'} about ${name}` : `No articles found in ${name}`) : undefined}
      />
      <Container className="py-10 sm:py-14">
        {error && <div className="mb-6"><LoadError message={error} onRetry={retry} /></div>}
        {empty ? (
          <EmptyState title={NO_POSTS_IN_CATEGORY}>
            <p>There are no articles here yet.</p>
            <Link to={BLOG_ROUTES.home} className={buttonClasses('secondary', 'md', 'mt-4')}>
              Browse all articles
            </Link>
          </EmptyState>
        ) : posts === null ? (
          loading ? <GridSkeleton /> : null
        ) : (
          <PagedPostGrid posts={posts} total={total} hasMore={hasMore} loadingMore={loadingMore} onLoadMore={loadMore} />
        )}
        <BlogCta />
      </Container>
    </>
  );
}
