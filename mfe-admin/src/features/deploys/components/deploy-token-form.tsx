import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { APP_NAMES, DEPLOY_TOKEN_LIMITS, deployTokenCreateSchema, type DeployTokenCreate } from '@site/contracts/deploys';
import { Button } from '@site/ui';
import { TextField } from '../../../components/form-field';

/** What each app is, beside its checkbox (the name is what the token and the deploy command say). */
const APP_HINTS: Record<(typeof APP_NAMES)[number], string> = {
  shell: 'The frame: header, footer, navigation',
  marketing: 'Home, services and city pages',
  analysis: 'The business analysis tool',
  blog: 'The blog',
  admin: 'This admin panel',
};

/**
 * Issue a deploy token: a name the owner will recognise in the deploy log, and the apps it may deploy. Checked with
 * the API's own schema before it is sent; the form is cleared once the token is made (`key` from the parent).
 */
export function DeployTokenForm({ busy, onSubmit }: { busy: boolean; onSubmit: (value: DeployTokenCreate) => void }) {
  const appsErrorId = useId();
  const { register, control, handleSubmit, formState } = useForm<z.input<typeof deployTokenCreateSchema>, unknown, DeployTokenCreate>({
    defaultValues: { name: '', apps: [] },
    resolver: zodResolver(deployTokenCreateSchema),
    reValidateMode: 'onSubmit',
  });
  const { errors } = formState;

  return (
    <form noValidate aria-label="New deploy token" onSubmit={(e) => handleSubmit(onSubmit)(e)} className="space-y-4">
      <TextField
        label="Name"
        required
        autoComplete="off"
        maxLength={DEPLOY_TOKEN_LIMITS.nameMax}
        placeholder="blog CI"
        {...register('name')}
        error={errors.name?.message}
        hint="Who uses it: the deploy log shows this name beside each deploy made with it."
      />
      <Controller
        control={control}
        name="apps"
        render={({ field, fieldState }) => {
          const apps = field.value ?? [];
          return (
            <fieldset aria-describedby={fieldState.error ? appsErrorId : undefined} aria-invalid={fieldState.error ? true : undefined}>
              <legend className="text-sm font-semibold text-fg">
                Apps it may deploy <span className="font-normal text-muted-fg">(at least one)</span>
              </legend>
              <div className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
                {APP_NAMES.map((app, i) => (
                  <label key={app} className="flex cursor-pointer items-start gap-2.5 rounded-lg border border-border p-2.5 text-sm hover:bg-surface-muted">
                    <input
                      type="checkbox"
                      // The first box takes the focus when none is ticked at submit.
                      ref={i === 0 ? field.ref : undefined}
                      className="mt-0.5 h-4 w-4 shrink-0 accent-blue-600"
                      checked={apps.includes(app)}
                      onBlur={field.onBlur}
                      onChange={(e) => field.onChange(e.target.checked ? [...new Set([...apps, app])] : apps.filter((a) => a !== app))}
                    />
                    <span className="min-w-0">
                      <code className="font-semibold text-fg">{app}</code>
                      <span className="block text-xs text-muted-fg">{APP_HINTS[app]}</span>
                    </span>
                  </label>
                ))}
              </div>
              {fieldState.error && (
                <p id={appsErrorId} className="mt-1.5 text-sm font-medium text-danger">
                  {fieldState.error.message}
                </p>
              )}
            </fieldset>
          );
        }}
      />
      <Button type="submit" disabled={busy} aria-busy={busy || undefined}>
        {busy ? 'Creating…' : 'Create token'}
      </Button>
    </form>
  );
}
