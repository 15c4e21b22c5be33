import { Link, useParams } from 'react-router-dom';
import { categoryNameForSlug, titleCaseSlug } from '@site/contracts/posts-rules';
import { Container, PageHeader, buttonClasses, usePageHead } from '@site/ui';
import { BlogCta } from '../../../components/blog-cta';
import { EmptyState, GridSkeleton, LoadError } from '../../../components/load-state';
import { PagedPostGrid } from '../../../components/paged-post-grid';
import { usePostList } from '../../../lib/use-post-list';
import { categoryPageHead } from '../data/category-head';

export { titleCaseSlug };

/**
 * /blog/category/:category: the published posts of one category (the server filters). The heading is the category's
 * real name (from its posts, or the offered categories); Title Case of the slug only when no category has that slug.
 */
export function CategoryPage() {
  const { category = '' } = useParams();
  const { posts, total, loading, error, retry, hasMore, loadingMore, loadMore } = usePostList({ q: '', category: category.toLowerCase() });
  const name = categoryNameForSlug(category, posts?.map((p) => p.category));
  // Once the posts are here, so the name is the category's real one: the head the server wrote (route table's `head`).
  usePageHead(posts ? categoryPageHead(category.toLowerCase(), name) : undefined);
  const count = total ?? 0;

  return (
    <>
      <PageHeader
        title={name}
        eyebrow={
          <Link to="/blog" className="inline-flex items-center gap-1 text-sm font-semibold text-primary hover:underline dark:text-blue-300">
            <span aria-hidden="true">←</span> Back to Blog
          </Link>
        }
        lead={total !== null ? (count > 0 ? `Discover ${count} ${count === 1 ? 'article' : 'articles'} about ${name}` : `No articles found in ${name}`) : undefined}
      />
      <Container className="py-10 sm:py-14">
        {error && <div className="mb-6"><LoadError message={error} onRetry={retry} /></div>}
        {posts === null ? (
          loading ? <GridSkeleton /> : null
        ) : posts.length === 0 ? (
          <EmptyState title="No posts in this category">
            <p>There are no articles here yet.</p>
            <Link to="/blog" className={buttonClasses('secondary', 'md', 'mt-4')}>
              Browse all articles
            </Link>
          </EmptyState>
        ) : (
          <PagedPostGrid posts={posts} total={total} hasMore={hasMore} loadingMore={loadingMore} onLoadMore={loadMore} />
        )}
        <BlogCta />
      </Container>
    </>
  );
}
