import { useId, useRef, useState, type FormEvent } from 'react';
import { BUSINESS_NAME_MAX, inferBusinessType, websiteUrlProblem } from '@site/contracts/analysis-rules';
import { Button, track } from '@site/ui';
import { smbRequestFrom, useAnalysisStore } from '../hooks/use-analysis-store';
import { useFieldTracking } from '../hooks/use-field-tracking';
import { LocationField } from './location-field';
import { FieldError, inputClasses } from './field-parts';

/** The longest business name the API accepts (the shared contract). */
export { BUSINESS_NAME_MAX };

/** Why an optional website address cannot be used, or null (the contract's rule, without loading zod). */
export function websiteProblem(raw: string): string | null {
  if (!raw.trim()) return null;
  if (/\s/.test(raw.trim())) return 'A website address cannot contain spaces.';
  return websiteUrlProblem(raw);
}

/** The SMB Scorecard form: business name (type inferred), optional website, location, Analyze. */
export function SmbForm({ onStart, onIntent }: { onStart?: () => void; onIntent?: () => void }) {
  const id = useId();
  const draft = useAnalysisStore((s) => s.draft);
  const setDraft = useAnalysisStore((s) => s.setDraft);
  const isAnalyzing = useAnalysisStore((s) => s.isAnalyzing);
  const analyze = useAnalysisStore((s) => s.analyze);
  const fields = useFieldTracking('analysis_smb');
  const [submitted, setSubmitted] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const websiteRef = useRef<HTMLInputElement>(null);
  const formStarted = useRef(false);

  const name = draft.businessName.trim();
  const nameTooLong = name.length > BUSINESS_NAME_MAX;
  const siteProblem = websiteProblem(draft.website);
  const businessType = inferBusinessType(name);
  const canSubmit = name !== '' && !isAnalyzing;

  const onFirstFocus = () => {
    if (formStarted.current) return;
    formStarted.current = true;
    onIntent?.();
    track('funnel_step', { funnel: 'analysis', step: 'form_started', mode: 'smb' });
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    // Spec: triggered with an empty name (Enter), nothing happens; nor while an analysis runs.
    if (!canSubmit) return;
    setSubmitted(true);
    if (nameTooLong) return nameRef.current?.focus();
    if (siteProblem) return websiteRef.current?.focus();
    onStart?.();
    void analyze(smbRequestFrom(draft, businessType));
  };

  const nameHint = `${id}-name-hint`;
  const nameError = `${id}-name-error`;
  const typeId = `${id}-type`;
  const siteHint = `${id}-site-hint`;
  const siteError = `${id}-site-error`;
  const showSiteError = Boolean(siteProblem) && (submitted || draft.website.trim().length > 3);

  return (
    <form onSubmit={onSubmit} noValidate aria-label="SMB Scorecard" className="space-y-5">
      <div>
        <label htmlFor={`${id}-name`} className="block text-sm font-medium text-fg">
          Business name
        </label>
        <input
          ref={nameRef}
          id={`${id}-name`}
          name="businessName"
          type="text"
          autoComplete="organization"
          value={draft.businessName}
          onChange={(e) => setDraft({ businessName: e.target.value })}
          placeholder="e.g. Sunrise Cafe"
          aria-invalid={nameTooLong || undefined}
          aria-describedby={[nameHint, name && typeId, nameTooLong && nameError].filter(Boolean).join(' ')}
          className={inputClasses(nameTooLong)}
          onFocus={() => {
            onFirstFocus();
            fields('businessName').onFocus();
          }}
          onBlur={fields('businessName').onBlur}
        />
        <p id={nameHint} className="mt-1 text-sm text-muted-fg">
          As customers know it on Google or Yelp. {draft.businessName.length > BUSINESS_NAME_MAX * 0.8 && `${name.length}/${BUSINESS_NAME_MAX} characters.`}
        </p>
        {nameTooLong && (
          <FieldError id={nameError}>
            Business names can be at most {BUSINESS_NAME_MAX} characters; this one has {name.length}. Shorten it to the name customers search for.
          </FieldError>
        )}
        <div aria-live="polite">
          {name && (
            <p id={typeId} className="mt-2 text-sm text-fg">
              Detected business type: <strong className="font-semibold">{businessType}</strong>
              <span className="text-muted-fg"> (from the name)</span>
            </p>
          )}
        </div>
      </div>

      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-site`} className="block text-sm font-medium text-fg">
            Website <span className="font-normal text-muted-fg">(optional)</span>
          </label>
          <input
            ref={websiteRef}
            id={`${id}-site`}
            name="website"
            type="text"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            value={draft.website}
            onChange={(e) => setDraft({ website: e.target.value })}
            placeholder="yourbusiness.com"
            aria-invalid={showSiteError || undefined}
            aria-describedby={[siteHint, showSiteError && siteError].filter(Boolean).join(' ')}
            className={inputClasses(showSiteError)}
            {...fields('website')}
          />
          <p id={siteHint} className="mt-1 text-sm text-muted-fg">
            We read it ourselves: speed, security and content.
          </p>
          {showSiteError && <FieldError id={siteError}>{siteProblem}</FieldError>}
        </div>
        <LocationField value={draft.location} onChange={(location) => setDraft({ location })} fieldProps={fields('location')} />
      </div>

      <Button type="submit" size="lg" disabled={!canSubmit} className="w-full sm:w-auto">
        {isAnalyzing ? 'Analyzing...' : 'Analyze'}
      </Button>
    </form>
  );
}
