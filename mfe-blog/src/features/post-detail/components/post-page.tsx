import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { type Post } from '@site/contracts/posts';
import { ApiError, Container, buttonClasses, usePageMeta } from '@site/ui';
import { BackToBlog, PostArticle } from '@site/ui/post-article';
import { BlogCta } from '../../../components/blog-cta';
import { LoadError } from '../../../components/load-state';
import { getPost } from '../api/get-post';
import { recordView } from '../api/record-view';

type State = { kind: 'loading' } | { kind: 'ready'; post: Post } | { kind: 'not-found' } | { kind: 'error'; message: string };

/** Page views already counted, by history entry: StrictMode's double effects and re-renders count once. */
const counted = new Set<string>();

/** /blog/:slug: the full post, its tags and views; 'Post Not Found' for an unknown slug. */
export function PostPage() {
  const { slug = '' } = useParams();
  const location = useLocation();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [views, setViews] = useState<number | null>(null);
  const [attempt, setAttempt] = useState(0);
  const viewKey = useRef('');

  useEffect(() => {
    const controller = new AbortController();
    setState({ kind: 'loading' });
    getPost(slug, controller.signal).then(
      (post) => {
        setState({ kind: 'ready', post });
        setViews(post.views);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        if (err instanceof ApiError && err.status === 404) setState({ kind: 'not-found' });
        else setState({ kind: 'error', message: err instanceof Error ? err.message : 'Could not load the article' });
      },
    );
    return () => controller.abort();
  }, [slug, attempt]);

  useEffect(() => {
    if (state.kind !== 'ready') return;
    const key = `${location.key}:${slug}`;
    if (counted.has(key) || viewKey.current === key) return;
    counted.add(key);
    viewKey.current = key;
    recordView(slug).then(setViews, () => {
      // A view that was not counted is not worth bothering the reader about.
    });
  }, [state.kind, slug, location.key]);

  const post = state.kind === 'ready' ? state.post : null;
  usePageMeta(
    post ? `${post.title} | Tri-Valley AI Automation` : state.kind === 'not-found' ? 'Post Not Found | Tri-Valley AI Automation' : 'AI Automation Blog | Tri-Valley AI Automation',
    post?.metaDescription,
  );

  if (state.kind === 'not-found') {
    return (
      <Container className="flex min-h-[60vh] flex-col items-center justify-center py-20 text-center">
        <h1 className="text-3xl font-bold text-fg sm:text-4xl">Post Not Found</h1>
        <p className="mt-3 max-w-md text-muted-fg">The blog post you're looking for doesn't exist.</p>
        <Link to="/blog" className={buttonClasses('primary', 'lg', 'mt-8')}>
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
        <LoadError title="We could not load this article" message={state.message} onRetry={() => setAttempt((n) => n + 1)} />
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
    <PostArticle post={post} views={views}>
      <BlogCta />
    </PostArticle>
  );
}
