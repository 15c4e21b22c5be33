import { useEffect, useState } from 'react';
import { PostArticle, type ArticlePost } from '@site/ui/post-article';
import { previewPostContent } from '../api/preview-post-content';

type Prepared = { content: string } | { error: string };

/**
 * The post as /blog/{slug} will show it: the content goes through the server's sanitizer first (what saving would
 * store), then the blog's own article component with its browser-side layer. Nothing is stored.
 */
export function PostPreview({ article }: { article: ArticlePost }) {
  const [prepared, setPrepared] = useState<{ source: string; result: Prepared } | null>(null);
  useEffect(() => {
    let live = true;
    previewPostContent(article.content).then(
      (result) => live && setPrepared({ source: article.content, result }),
      (error: unknown) =>
        live && setPrepared({ source: article.content, result: { error: error instanceof Error ? error.message : 'The preview could not be prepared.' } }),
    );
    return () => {
      live = false;
    };
  }, [article.content]);

  if (!prepared || prepared.source !== article.content) {
    return (
      <div role="status" className="px-6 py-16 text-center text-muted-fg">
        Preparing the preview…
      </div>
    );
  }
  const { result } = prepared;
  return (
    <>
      {'error' in result && (
        <p role="alert" className="border-b border-border bg-warning-soft px-4 py-2 text-sm text-fg">
          The server could not prepare the preview ({result.error}). Below is the browser&apos;s rendering; saving may remove more.
        </p>
      )}
      <PostArticle post={'error' in result ? article : { ...article, content: result.content }} headingLevel={2} />
    </>
  );
}
