import { useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { BLOG_CATEGORIES } from '@site/contracts/posts';
import { Field, TextField, controlClass } from '../../../components/form-field';
import { isCustomCategory, type PostFormState } from '../lib/post-form-schema';

const OTHER = '__other__';
const listed = (category: string) => (BLOG_CATEGORIES as readonly string[]).includes(category);

/**
 * The category: one of the blog's four from a list, or 'Other (type a category)', which shows a text field (and
 * takes the focus there). A category the list does not have is shown as typed.
 */
export function PostCategoryField({ onEdit }: { onEdit: () => void }) {
  const { register, control, setValue, getValues, formState } = useFormContext<PostFormState>();
  const [category, otherCategory] = useWatch({ control, name: ['category', 'otherCategory'] });
  const typedRef = useRef<HTMLInputElement | null>(null);
  const custom = isCustomCategory({ category, otherCategory });
  const error = formState.errors.category?.message;
  const typed = register('category', { onChange: onEdit });

  const choose = (value: string) => {
    onEdit();
    const other = value === OTHER;
    const current = getValues('category');
    setValue('otherCategory', other);
    // Once the writer has tried to save, the field's message follows each choice.
    setValue('category', other ? (listed(current) ? '' : current) : value, { shouldDirty: true, shouldValidate: formState.isSubmitted });
    if (other) requestAnimationFrame(() => typedRef.current?.focus());
  };

  return (
    <div>
      <Field label="Category" required error={custom ? undefined : error} hint="One of the blog's four categories, or type a new one.">
        {(control) => (
          <select {...control} className={controlClass} value={custom ? OTHER : category} onChange={(e) => choose(e.target.value)}>
            <option value="">Choose a category</option>
            {BLOG_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
            <option value={OTHER}>Other (type a category)</option>
          </select>
        )}
      </Field>
      {custom && (
        <TextField
          {...typed}
          ref={(el) => {
            typed.ref(el);
            typedRef.current = el;
          }}
          className="mt-3"
          label="Category name"
          required
          error={error}
          maxLength={60}
        />
      )}
    </div>
  );
}
