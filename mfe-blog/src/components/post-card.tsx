import { Link } from 'react-router-dom';
import { blogPostPath } from '@site/contracts/blog-routes';
import { cardExcerpt, categoryIllustration, PLACEHOLDER_IMAGE } from '@site/contracts/posts-rules';
import type { PostSummary } from '@site/contracts/posts';
import { Badge } from '@site/ui';
import { formatDate, formatReadTime, formatViews } from '../lib/format';
import { PostImage } from '@site/ui/post-image';

/** One article in a grid: image, category, read time, title, excerpt (150 characters), author, date and views. */
export function PostCard({ post, headingLevel = 2, eager = false }: { post: PostSummary; headingLevel?: 2 | 3; eager?: boolean }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-2xl border border-border bg-surface shadow-sm transition-shadow hover:shadow-md focus-within:ring-2 focus-within:ring-ring">
      {/* A post without its own image shows its category's illustration, so the grid is not one image repeated. The alt
          is the owner's text for the post's image (Media screen); without one the image is decoration beside the title. */}
      <PostImage
        src={cardImage(post)}
        alt={post.featuredImageAlt ?? ''}
        width={1200}
        height={630}
        sizes="(min-width: 1152px) 350px, (min-width: 1024px) 30vw, (min-width: 768px) 46vw, calc(100vw - 2rem)"
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        className="aspect-[40/21] w-full"
      />
      <div className="flex flex-1 flex-col p-6">
        <div className="mb-3 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-muted-fg">
          <Badge>{post.category}</Badge>
          <span>{formatReadTime(post.readTime)}</span>
        </div>
        <Heading className="text-xl font-bold leading-snug text-fg">
          <Link to={blogPostPath(post.slug)} className="after:absolute after:inset-0 hover:text-primary focus:outline-none dark:hover:text-blue-300">
            {post.title}
          </Link>
        </Heading>
        <p className="mt-3 flex-1 text-muted-fg">{cardExcerpt(post.excerpt)}</p>
        <div className="mt-5 flex flex-wrap items-center justify-between gap-2 border-t border-border pt-4 text-sm text-muted-fg">
          <span className="font-medium text-fg">{post.author}</span>
          <span className="flex gap-3">
            <time dateTime={post.publishedAt ?? undefined}>{formatDate(post.publishedAt)}</time>
            <span aria-hidden="true">·</span>
            <span>{formatViews(post.views)}</span>
          </span>
        </div>
      </div>
    </article>
  );
}

export function PostGrid({ posts, headingLevel }: { posts: PostSummary[]; headingLevel?: 2 | 3 }) {
  return (
    <ul className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" aria-label="Articles">
      {posts.map((post, i) => (
        <li key={post.id} className="flex">
          <div className="flex w-full">
            <PostCard post={post} headingLevel={headingLevel} eager={i < 3} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The post's own image, or its category's designed illustration when it has none (the stored default). */
export function cardImage(post: Pick<PostSummary, 'featuredImage' | 'category'>): string {
  if (post.featuredImage && post.featuredImage !== PLACEHOLDER_IMAGE) return post.featuredImage;
  return categoryIllustration(post.category) ?? PLACEHOLDER_IMAGE;
}
