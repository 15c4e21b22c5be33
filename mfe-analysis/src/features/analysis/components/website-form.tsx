import { useId, useRef, useState, type FormEvent } from 'react';
import { Button, track } from '@site/ui';
import { useAnalysisStore, websiteRequestFrom } from '../hooks/use-analysis-store';
import { useFieldTracking } from '../hooks/use-field-tracking';
import { LocationField } from './location-field';
import { FieldError, inputClasses } from './field-parts';
import { websiteProblem } from './smb-form';

/** Website mode: a URL (https:// added when missing), the location, Analyze. */
export function WebsiteForm({ onStart, onIntent }: { onStart?: () => void; onIntent?: () => void }) {
  const id = useId();
  const draft = useAnalysisStore((s) => s.draft);
  const setDraft = useAnalysisStore((s) => s.setDraft);
  const isAnalyzing = useAnalysisStore((s) => s.isAnalyzing);
  const analyze = useAnalysisStore((s) => s.analyze);
  const fields = useFieldTracking('analysis_website');
  const [submitted, setSubmitted] = useState(false);
  const urlRef = useRef<HTMLInputElement>(null);
  const formStarted = useRef(false);

  const url = draft.url.trim();
  const problem = websiteProblem(draft.url);
  const showError = Boolean(problem) && submitted;
  const canSubmit = url !== '' && !isAnalyzing;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!canSubmit) return;
    setSubmitted(true);
    if (problem) return urlRef.current?.focus();
    onStart?.();
    void analyze(websiteRequestFrom(draft));
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Website Analysis" className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-url`} className="block text-sm font-medium text-fg">
            Website address
          </label>
          <input
            ref={urlRef}
            id={`${id}-url`}
            name="url"
            type="text"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            value={draft.url}
            onChange={(e) => setDraft({ url: e.target.value })}
            placeholder="yourbusiness.com"
            aria-invalid={showError || undefined}
            aria-describedby={[`${id}-url-hint`, showError && `${id}-url-error`].filter(Boolean).join(' ')}
            className={inputClasses(showError)}
            onFocus={() => {
              if (!formStarted.current) {
                formStarted.current = true;
                onIntent?.();
                track('funnel_step', { funnel: 'analysis', step: 'form_started', mode: 'website' });
              }
              fields('url').onFocus();
            }}
            onBlur={fields('url').onBlur}
          />
          <p id={`${id}-url-hint`} className="mt-1 text-sm text-muted-fg">
            https:// is added when you leave it out.
          </p>
          {showError && <FieldError id={`${id}-url-error`}>{problem}</FieldError>}
        </div>
        <LocationField value={draft.location} onChange={(location) => setDraft({ location })} fieldProps={fields('location')} />
      </div>
      <Button type="submit" size="lg" disabled={!canSubmit} className="w-full sm:w-auto">
        {isAnalyzing ? 'Analyzing...' : 'Analyze'}
      </Button>
    </form>
  );
}
