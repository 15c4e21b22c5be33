// A subpath module (`@site/ui/post-article`), not part of the shared singleton: it is bundled into each remote
// that renders posts (the blog's post page, the admin preview), so DOMPurify never loads on pages without one.
// It imports only stateless leaf modules of this package; anything with state comes from '@site/ui' itself.
import DOMPurify from 'dompurify';
import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { BLOG_ROUTES, blogCategoryPath } from '@site/contracts/blog-routes';
import type { Post } from '@site/contracts/posts';
import { formatPostDate, formatPostViews, formatReadTime } from './post-format';
import { PostImage } from './post-image';
import { Badge, Container } from './layout';
import './post-article.css';

let hooked = false;

/**
 * The second layer: the API already sanitized the HTML on write; DOMPurify cleans it again in the browser
 * before it reaches the DOM, so a row written around the API still cannot run anything.
 */
export function sanitizeArticleHtml(html: string): string {
  // On the server (no DOM, so no DOMPurify) the HTML is the API's, sanitized there with sanitize-html on write and
  // again when the server loads it for rendering; the browser cleans it again here on its own renders.
  if (!DOMPurify.isSupported) return html;
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        node.setAttribute('rel', 'noopener noreferrer');
        if (node.getAttribute('target') !== '_blank') node.removeAttribute('target');
      }
    });
  }
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'svg', 'math', 'iframe', 'form', 'input', 'button', 'textarea', 'select', 'object', 'embed', 'link', 'meta', 'base'],
    FORBID_ATTR: ['style', 'srcset', 'formaction', 'action'],
    ADD_ATTR: ['target'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|tel:|\/(?!\/)|#)/i,
  });
}

export { formatPostDate, formatPostViews, formatReadTime } from './post-format';

/** The link back to the blog list, shown above and below an article. */
export function BackToBlog() {
  return (
    <Link to={BLOG_ROUTES.home} className="inline-flex items-center gap-1 text-sm font-semibold text-primary hover:underline dark:text-blue-300">
      <span aria-hidden="true">←</span> Back to Blog
    </Link>
  );
}

/** What an article needs of a post (the admin preview builds it from the form before the post exists). */
export type ArticlePost = Pick<
  Post,
  'title' | 'excerpt' | 'content' | 'keywords' | 'author' | 'publishedAt' | 'featuredImage' | 'featuredImageAlt' | 'category' | 'categorySlug' | 'readTime' | 'views'
>;

/**
 * A post as /blog/{slug} shows it: header (category, read time, title, excerpt, author, date, views), featured
 * image, the sanitized HTML content and its tags. The blog's post page and the admin preview both render this,
 * so the preview is exactly what readers will see.
 */
export function PostArticle({
  post,
  views,
  children,
  headingLevel = 1,
}: {
  post: ArticlePost;
  /** The live view count when it is newer than the post's. */
  views?: number | null;
  /** Rendered after the article body, inside its container (the blog's call to action). */
  children?: ReactNode;
  /** 2 when the article sits inside a page that already has its own h1 (the admin preview). */
  headingLevel?: 1 | 2;
}) {
  const html = useMemo(() => sanitizeArticleHtml(post.content), [post.content]);
  const Title = headingLevel === 1 ? 'h1' : 'h2';
  const TagsHeading = headingLevel === 1 ? 'h2' : 'h3';
  return (
    <article>
      <header className="border-b border-border bg-gradient-to-b from-primary-soft/60 to-bg">
        <Container className="py-10 sm:py-14">
          <div className="mx-auto max-w-3xl">
            <BackToBlog />
            <div className="mt-6 flex flex-wrap items-center gap-3 text-sm text-muted-fg">
              <Link to={blogCategoryPath(post.categorySlug)} className="rounded-full focus-visible:outline-2 focus-visible:outline-offset-2">
                <Badge>{post.category}</Badge>
              </Link>
              <span>{formatReadTime(post.readTime)}</span>
            </div>
            <Title className="mt-4 text-3xl font-extrabold tracking-tight text-fg sm:text-5xl sm:leading-tight">{post.title}</Title>
            <p className="mt-4 text-lg text-muted-fg">{post.excerpt}</p>
            <div className="mt-6 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-fg">
              <span className="font-semibold text-fg">By {post.author}</span>
              <time dateTime={post.publishedAt ?? undefined}>{formatPostDate(post.publishedAt)}</time>
              <span>{formatPostViews(views ?? post.views)}</span>
            </div>
          </div>
        </Container>
      </header>
      <Container className="py-10">
        <div className="mx-auto max-w-3xl">
          <PostImage
            src={post.featuredImage}
            // The owner's words for the image (Media screen), else the title it illustrates.
            alt={post.featuredImageAlt || post.title}
            width={1200}
            height={630}
            sizes="(min-width: 800px) 768px, calc(100vw - 2rem)"
            fetchPriority="high"
            className="mb-10 aspect-[21/9] w-full rounded-2xl"
          />
          <div className="post-content" dangerouslySetInnerHTML={{ __html: html }} />
          {post.keywords.length > 0 && (
            <div className="mt-10 border-t border-border pt-6">
              <TagsHeading className="mb-3 text-sm font-semibold uppercase tracking-wider text-muted-fg">Tags</TagsHeading>
              <ul className="flex flex-wrap gap-2" aria-label="Tags">
                {post.keywords.map((k) => (
                  <li key={k} className="rounded-full bg-surface-muted px-3 py-1 text-sm text-fg">
                    #{k}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <div className="mt-10">
            <BackToBlog />
          </div>
        </div>
        {children}
      </Container>
    </article>
  );
}

export { PostImage };
