import { Link, useLocation, useParams } from 'react-router-dom';
import { BLOG_ROUTES } from '@site/contracts/blog-routes';
import { Container, buttonClasses, useNotFoundSignal, usePageHead, type PageHead } from '@site/ui';
import { BackToBlog, PostArticle } from '@site/ui/post-article';
import { BlogCta } from '../../../components/blog-cta';
import { LoadError } from '../../../components/load-state';
import { postHead } from '../data/post-head';
import { usePost } from '../hooks/use-post';
import { useRecordView } from '../hooks/use-record-view';

const POST_NOT_FOUND_HEAD: PageHead = { title: 'Post Not Found | Tri-Valley AI Automation', noindex: true };

/** /blog/:slug: the full post, its tags and views; 'Post Not Found' for an unknown slug. */
export function PostPage({ notFound = false }: { notFound?: boolean }) {
  const { slug = '' } = useParams();
  const location = useLocation();
  // `notFound`: the server answered 404 for this slug and rendered this page's not-found state.
  const state = usePost(slug, { known404: notFound });
  useRecordView(slug, location.key, state.kind === 'ready');

  const post = state.kind === 'ready' ? state.post : null;
  // The same head the server rendered into the HTML (the route table's `head` for /blog/:slug), once the post is here.
  usePageHead(post ? postHead(post) : state.kind === 'not-found' ? POST_NOT_FOUND_HEAD : undefined);
  useNotFoundSignal(state.kind === 'not-found');

  if (state.kind === 'not-found') {
    return (
      <Container className="flex min-h-[60vh] flex-col items-center justify-center py-20 text-center">
        <h1 className="text-3xl font-bold text-fg sm:text-4xl">Post Not Found</h1>
        <p className="mt-3 max-w-md text-muted-fg">The blog post you're looking for doesn't exist.</p>
        <Link to={BLOG_ROUTES.home} className={buttonClasses('primary', 'lg', 'mt-8')}>
          Back to Blog
        </Link>
      </Container>
    );
  }

  if (state.kind === 'error') {
    return (
      <Container className="py-16">
        <div className="mb-6">
          <BackToBlog />
        </div>
        <LoadError title="We could not load this article" message={state.message} onRetry={state.retry} />
      </Container>
    );
  }

  if (!post) {
    return (
      // A full screen tall, so the footer stays below the fold until the article replaces it (no layout shift).
      <Container className="min-h-screen py-12" aria-busy="true">
        <div role="status" className="mx-auto max-w-3xl animate-pulse space-y-4">
          <span className="sr-only">Loading article…</span>
          <div className="h-4 w-32 rounded bg-surface-muted" />
          <div className="h-10 w-full rounded bg-surface-muted" />
          <div className="h-10 w-2/3 rounded bg-surface-muted" />
          <div className="aspect-[40/21] w-full rounded-2xl bg-surface-muted" />
          <div className="h-4 w-full rounded bg-surface-muted" />
          <div className="h-4 w-5/6 rounded bg-surface-muted" />
        </div>
      </Container>
    );
  }

  return (
    <PostArticle post={post}>
      <BlogCta />
    </PostArticle>
  );
}
