import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { adminPostConflictDetailsSchema, ADMIN_MESSAGES, postFieldErrors, type PostRevisionSummary } from '@site/contracts/admin';
import { validationFailedMessage, type Post } from '@site/contracts/posts';
import { ApiError, notify } from '@site/ui';
import { adminPages } from '../../../config/pages';
import { useCreatePostMutation } from '../api/create-post';
import { useUpdatePostMutation } from '../api/update-post';
import { draftKey } from '../lib/post-draft-storage';
import { formStateOf, isCustomCategory, pickPostValues, postFormSchema, type PostFormState } from '../lib/post-form-schema';
import { emptyPostValues, postFormMessages, sameValues, toPostInput, validationMessages, valuesFromPost } from '../lib/post-form-values';
import { useDraftAutosave } from './use-draft-autosave';

const focusSoon = (ref: { current: HTMLElement | null }, scroll = false) =>
  requestAnimationFrame(() => {
    if (scroll) ref.current?.scrollIntoView?.({ block: 'center' });
    ref.current?.focus();
  });

/**
 * `fn` as one function for the component's life, calling the latest render's: a memoized part given it (the fields, the
 * history) is not rendered again on every edit of the form, and still calls what the form is now.
 */
function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}

/**
 * The state of the create and edit form: the fields (react-hook-form, checked with the contract's rules), the stored
 * version they edit, the local draft, and what a save answered (the messages next to the fields, the conflict
 * notice, the alert above the form). The stored version is the form's own: only an answer it loads moves it, never a
 * refetch, or a save would carry an updatedAt the writer never saw and overwrite someone else's change.
 */
export function usePostEditor(initial: Post | null) {
  const navigate = useNavigate();
  const create = useCreatePostMutation();
  const update = useUpdatePostMutation();
  const [post, setPost] = useState<Post | null>(initial);
  const [conflict, setConflict] = useState<Post | null>(null);
  const [formAlert, setFormAlert] = useState<string | null>(null);
  const [preview, setPreview] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const conflictRef = useRef<HTMLDivElement>(null);
  const form = useForm<PostFormState>({ defaultValues: formStateOf(initial), resolver: zodResolver(postFormSchema), shouldFocusError: false });
  const state = useWatch({ control: form.control, compute: (s: PostFormState) => ({ ...s }) });
  const values = pickPostValues(state);
  const baseline = post ? valuesFromPost(post) : emptyPostValues;
  const dirty = !sameValues(values, baseline);
  const saving = create.isPending || update.isPending;
  const autosave = useDraftAutosave({ storageKey: draftKey(initial?.id ?? null), values, baseline, baseUpdatedAt: post?.updatedAt ?? null, ready: true });

  // The live 'Validation failed: …' once the writer has tried to save; the server's, until the next change, otherwise.
  const messages = form.formState.isSubmitted ? postFormMessages(values, { categoryTyped: isCustomCategory(state) }) : [];
  const summary = messages.length ? validationFailedMessage(messages) : (form.formState.errors.root?.server?.message ?? null);

  /** A failed check: the form comes back from the preview and the summary takes the focus. */
  const showInvalid = () => {
    setPreview(false);
    focusSoon(summaryRef);
  };
  /** Any change drops the server's verdict on the last save (the form's own checks take over). */
  const clearServerErrors = useStableCallback(() => {
    if (form.formState.errors.root?.server) form.clearErrors();
  });

  const showConflict = useStableCallback((current: Post) => {
    setConflict(current);
  });
  // The notice takes the focus once React has put it on the page: an effect runs after that commit, where the next
  // animation frame may come before it.
  useEffect(() => {
    if (!conflict) return;
    conflictRef.current?.scrollIntoView?.({ block: 'center' });
    conflictRef.current?.focus();
  }, [conflict]);

  /** A failed create or save, shown where the writer looks: next to the fields, as the conflict notice, or above the form. */
  function showSaveError(err: unknown) {
    if (err instanceof ApiError && err.status === 400 && err.code === 'validation_failed') {
      const list = validationMessages(err);
      for (const [field, message] of Object.entries(postFieldErrors(list))) form.setError(field as keyof PostFormState, { type: 'server', message });
      form.setError('root.server', { type: 'server', message: validationFailedMessage(list) });
      focusSoon(summaryRef);
    } else if (err instanceof ApiError && err.status === 409 && post) {
      const details = adminPostConflictDetailsSchema.safeParse(err.details);
      showConflict(details.success ? details.data.current : post);
    } else if (err instanceof ApiError && err.status === 404) {
      setFormAlert(ADMIN_MESSAGES.postNotFound);
    } else if (!(err instanceof ApiError && err.status === 401)) {
      setFormAlert(post ? 'Error updating post. Please try again.' : 'Error creating post. Please try again.');
    }
  }

  /** The form edits `next` from now on: its fields, no errors, not submitted ('Other' stays chosen). */
  function resetTo(next: Post) {
    setPost(next);
    form.reset(formStateOf(next, form.getValues('otherCategory')));
  }

  /** The form's post after a server answer: fields, baseline and the local draft follow it. */
  function loadPost(next: Post) {
    resetTo(next);
    autosave.clear();
  }

  /** Saves the form (PUT with the updatedAt it loaded): the stored post, or null when it failed (the error is shown). */
  async function saveChanges(): Promise<Post | null> {
    if (!post) return null;
    try {
      const updated = await update.mutateAsync({ id: post.id, body: { ...toPostInput(pickPostValues(form.getValues())), expectedUpdatedAt: post.updatedAt } });
      loadPost(updated);
      return updated;
    } catch (err) {
      showSaveError(err);
      return null;
    }
  }

  async function createOrSave(checked: PostFormState) {
    if (saving) return;
    setFormAlert(null);
    if (post) {
      if (await saveChanges()) notify.success('Post updated');
      return;
    }
    try {
      const created = await create.mutateAsync(toPostInput(pickPostValues(checked)));
      autosave.stop();
      notify.success('Post created as a draft', { description: `“${created.title}” is in the list; publish it when it is ready.` });
      navigate(adminPages.posts.path);
    } catch (err) {
      showSaveError(err);
    }
  }

  /** Create Post / Save Changes: the form's checks, then the request (handleSubmit is made here, at the event). */
  const onSubmit = (e: FormEvent) =>
    form.handleSubmit(createOrSave, () => {
      setFormAlert(null);
      showInvalid();
    })(e);

  /** The form's checks before a status change that saves first: false (and the errors shown) when they fail. */
  async function readyForStatusChange(): Promise<boolean> {
    setFormAlert(null);
    if (!dirty) return true;
    let ready = false;
    await form.handleSubmit(() => {
      ready = true;
    }, showInvalid)();
    return ready;
  }

  /** Before a status change what is on screen goes live: unsaved edits are saved first. Null when they could not be. */
  const savedForStatusChange = async (): Promise<Post | null> => (!post ? null : !dirty ? post : saveChanges());

  /** A revision restored from the history: edits not saved yet stay on this device and are offered, as after a conflict. */
  const onRestored = useStableCallback((updated: Post, from: PostRevisionSummary) => {
    const [mine, hadEdits] = [values, dirty];
    loadPost(updated);
    setConflict(null);
    if (hadEdits && !sameValues(mine, valuesFromPost(updated))) autosave.keepAndOffer(mine);
    notify.success('Version restored', { description: `The post now has the title, content and fields of revision #${from.number}.` });
  });

  return {
    form, post, setPost, values, state, dirty, saving, autosave, summary, summaryRef, conflict, setConflict, conflictRef, formAlert, preview,
    setPreview, clearServerErrors, onSubmit, showConflict, resetTo, loadPost, readyForStatusChange, savedForStatusChange, onRestored,
  };
}

export type PostEditorState = ReturnType<typeof usePostEditor>;
