import { useState } from 'react';
import type { PostRevision } from '@site/contracts/admin';
import { readTime, type Post } from '@site/contracts/posts';
import { Button, cn } from '@site/ui';
import { PostArticle, type ArticlePost } from '@site/ui/post-article';
import { contentWordDiff, shortFieldChanges, type WordChange } from '../lib/revision-diff';

/** The version's content as the blog renders it (the server sanitized it when it was stored). */
function articleOf(revision: PostRevision, post: Post): ArticlePost {
  const then = revision.post;
  return {
    title: then.title,
    excerpt: then.excerpt,
    content: then.content,
    keywords: then.keywords,
    author: then.author,
    category: then.category,
    categorySlug: then.categorySlug,
    readTime: readTime(then.content),
    views: post.views,
    publishedAt: then.publishedAt ?? post.publishedAt ?? revision.createdAt,
    featuredImage: then.featuredImage ?? post.featuredImage,
  };
}

const removedClass = 'rounded-sm bg-danger-soft px-0.5 text-red-900 line-through decoration-red-700/70 dark:text-red-200 dark:decoration-red-300/70';
const addedClass = 'rounded-sm bg-accent-soft px-0.5 text-emerald-900 underline decoration-emerald-700/70 underline-offset-2 dark:text-emerald-200 dark:decoration-emerald-300/70';

/** Removed and added words marked by element, colour, stroke and a word for screen readers (never colour alone). */
function WordDiff({ changes }: { changes: WordChange[] }) {
  return (
    <>
      {changes.map((c, i) =>
        c.kind === 'removed' ? (
          <del key={i} className={removedClass}>
            <span className="sr-only">[removed: </span>
            {c.text}
            <span className="sr-only">]</span>
          </del>
        ) : c.kind === 'added' ? (
          <ins key={i} className={addedClass}>
            <span className="sr-only">[added: </span>
            {c.text}
            <span className="sr-only">]</span>
          </ins>
        ) : (
          <span key={i}>{c.text}</span>
        ),
      )}
    </>
  );
}

/** The legend of the marks, said once above the diff. */
function DiffLegend() {
  return (
    <p className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-fg">
      <span>
        <del className={removedClass}>struck through</del>: only in this version
      </span>
      <span>
        <ins className={addedClass}>underlined</ins>: only in the current version
      </span>
    </p>
  );
}

/**
 * One revision against the post as it is stored now: the short fields that differ side by side (then / now), the
 * content as a word diff of its text, or the version's rendered preview.
 */
export function RevisionView({ revision, post }: { revision: PostRevision; post: Post }) {
  const [showPreview, setShowPreview] = useState(false);
  const fields = shortFieldChanges(revision.post, post);
  const content = revision.post.content === post.content ? null : contentWordDiff(revision.post.content, post.content);
  const same = fields.length === 0 && content === null;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-2" role="group" aria-label="How to show this version">
        <Button size="sm" variant="secondary" aria-pressed={!showPreview} onClick={() => setShowPreview(false)} className={cn(!showPreview && 'border-primary bg-primary-soft text-primary-soft-fg')}>
          Differences
        </Button>
        <Button size="sm" variant="secondary" aria-pressed={showPreview} onClick={() => setShowPreview(true)} className={cn(showPreview && 'border-primary bg-primary-soft text-primary-soft-fg')}>
          Preview of this version
        </Button>
      </div>

      {showPreview ? (
        <section aria-label={`Preview of revision ${revision.number}`} className="overflow-hidden rounded-xl border border-border bg-bg">
          <p className="border-b border-border bg-surface-muted px-4 py-2 text-xs font-semibold uppercase tracking-wider text-muted-fg">
            Revision #{revision.number} as readers would have seen it
          </p>
          <PostArticle post={articleOf(revision, post)} headingLevel={2} />
        </section>
      ) : same ? (
        <p className="rounded-xl border border-dashed border-border p-4 text-sm text-muted-fg">This version is the same as the current one.</p>
      ) : (
        <div className="space-y-4">
          <DiffLegend />
          {fields.length > 0 && (
            <section aria-label="Changed fields">
              <dl className="divide-y divide-border overflow-hidden rounded-xl border border-border">
                {fields.map((f) => (
                  <div key={f.field} className="p-3 text-sm">
                    <dt className="font-semibold text-fg">
                      {f.label}
                      {f.keptOnRestore && <span className="ml-2 text-xs font-normal text-muted-fg">(stays as it is now when restoring)</span>}
                    </dt>
                    <dd className="mt-2 grid gap-2 sm:grid-cols-2">
                      <div className="min-w-0 rounded-lg bg-danger-soft/60 p-2">
                        <span className="block text-xs font-semibold uppercase tracking-wider text-muted-fg">Then</span>
                        <span className="break-words text-fg">{f.then}</span>
                      </div>
                      <div className="min-w-0 rounded-lg bg-accent-soft/60 p-2">
                        <span className="block text-xs font-semibold uppercase tracking-wider text-muted-fg">Now</span>
                        <span className="break-words text-fg">{f.now}</span>
                      </div>
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          )}
          {content && content.every((c) => c.kind === 'same') ? (
            <p className="text-sm text-muted-fg">Only the content&apos;s markup differs (formatting or links); its text is the same.</p>
          ) : content ? (
            <section aria-label="Content changes" className="rounded-xl border border-border">
              <h4 className="border-b border-border bg-surface-muted px-3 py-2 text-sm font-semibold text-fg">Content (text, word by word)</h4>
              <div tabIndex={0} role="group" aria-label="Content differences" className="max-h-96 overflow-y-auto whitespace-pre-wrap break-words p-3 text-sm leading-relaxed text-fg focus:outline-2 focus:outline-ring">
                <WordDiff changes={content} />
              </div>
            </section>
          ) : (
            <p className="text-sm text-muted-fg">The content is the same as the current one.</p>
          )}
        </div>
      )}
    </div>
  );
}
