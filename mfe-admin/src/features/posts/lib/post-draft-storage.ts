import type { PostFormValues } from './post-form-values';
import { POST_FORM_FIELDS } from './post-form-values';

/** A local copy of unsaved form values, so nothing typed is lost to a reload, a crash or a lost session. */
export type PostDraft = {
  values: PostFormValues;
  savedAt: string;
  /** The post's updatedAt when the form was loaded (null for a new post). */
  baseUpdatedAt: string | null;
};

export const draftKey = (postId: string | null) => `admin:post-draft:${postId ?? 'new'}`;

function isDraft(value: unknown): value is PostDraft {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<PostDraft>;
  return (
    typeof v.savedAt === 'string' &&
    !!v.values &&
    typeof v.values === 'object' &&
    POST_FORM_FIELDS.every((f) => typeof (v.values as Record<string, unknown>)[f] === 'string')
  );
}

export function readDraft(key: string): PostDraft | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isDraft(parsed) ? { ...parsed, baseUpdatedAt: parsed.baseUpdatedAt ?? null } : null;
  } catch (err) {
    console.warn('Could not read the local draft', err);
    return null;
  }
}

export function writeDraft(key: string, draft: PostDraft): boolean {
  try {
    localStorage.setItem(key, JSON.stringify(draft));
    return true;
  } catch (err) {
    // Storage full or blocked: only logged (spec section 8); the leave warning still protects the text.
    console.warn('Could not save the local draft', err);
    return false;
  }
}

export function removeDraft(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch (err) {
    console.warn('Could not remove the local draft', err);
  }
}
