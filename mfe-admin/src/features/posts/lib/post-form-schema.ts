import { z } from 'zod';
import { postFieldErrors } from '@site/contracts/admin';
import { BLOG_CATEGORIES, type Post } from '@site/contracts/posts';
import { emptyPostValues, POST_FORM_FIELDS, postFormMessages, valuesFromPost, type PostFormValues } from './post-form-values';

/**
 * What the post form holds: the fields as typed, and whether the writer chose 'Other (type a category)' (then the
 * category is typed, and an empty one gets the spec's length message rather than 'Choose a category').
 */
export type PostFormState = PostFormValues & { otherCategory: boolean };

/** The category is typed rather than chosen: 'Other' was chosen, or the post's category is none of the list's. */
export const isCustomCategory = (state: Pick<PostFormState, 'category' | 'otherCategory'>) =>
  state.otherCategory || (state.category !== '' && !(BLOG_CATEGORIES as readonly string[]).includes(state.category));

/**
 * The post form's schema (react-hook-form's resolver): the contract's rules (`adminPostCreateSchema`, the spec's
 * lengths, the keyword limits) with their exact messages, each placed on its field as the API's 400 would place it.
 * Messages that name no field go under `form`, which the summary lists.
 */
export const postFormSchema = z
  .object({
    title: z.string(),
    excerpt: z.string(),
    content: z.string(),
    author: z.string(),
    category: z.string(),
    keywords: z.string(),
    featuredImage: z.string(),
    ogImage: z.string(),
    metaDescription: z.string(),
    otherCategory: z.boolean(),
  } satisfies Record<keyof PostFormState, z.ZodType>)
  .superRefine((state, ctx) => {
    for (const message of postFormMessages(state, { categoryTyped: isCustomCategory(state) })) {
      const [field, shown] = Object.entries(postFieldErrors([message]))[0]!;
      ctx.addIssue({ code: 'custom', path: [field], message: shown });
    }
  });

/** The form's values alone (what a draft keeps and what is compared with the stored post). */
export const pickPostValues = (state: PostFormValues): PostFormValues => Object.fromEntries(POST_FORM_FIELDS.map((f) => [f, state[f]])) as PostFormValues;

export const formStateOf = (post: Post | null, otherCategory = false): PostFormState => ({
  ...(post ? valuesFromPost(post) : emptyPostValues),
  otherCategory,
});
