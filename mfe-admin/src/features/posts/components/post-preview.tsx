import { PostArticle, type ArticlePost } from '@site/ui/post-article';
import { usePostPreviewQuery } from '../api/preview-post-content';

/**
 * The post as /blog/{slug} will show it: the content goes through the server's sanitizer first (what saving would
 * store), then the blog's own article component with its browser-side layer. Nothing is stored.
 */
export function PostPreview({ article }: { article: ArticlePost }) {
  const prepared = usePostPreviewQuery(article.content);
  if (prepared.isPending) {
    return (
      <div role="status" className="px-6 py-16 text-center text-muted-fg">
        Preparing the preview…
      </div>
    );
  }
  return (
    <>
      {prepared.isError && (
        <p role="alert" className="border-b border-border bg-warning-soft px-4 py-2 text-sm text-fg">
          The server could not prepare the preview ({prepared.error.message || 'The preview could not be prepared.'}). Below is the browser&apos;s rendering; saving may
          remove more.
        </p>
      )}
      <PostArticle post={prepared.isError ? article : { ...article, content: prepared.data.content }} headingLevel={2} />
    </>
  );
}
