/**
 * What sending the form needs beyond rendering it: the contact contract (zod, about 90 kB gz in the browser) and
 * the send request. They load when the visitor first reaches for the form (focus, pointer) or submits, not with
 * the page: the form sits below the fold of the home page and most visits never use it.
 */
export type SubmitCode = typeof import('@site/contracts/contact') & typeof import('../api/send-contact-message');

let loading: Promise<SubmitCode> | null = null;
let loaded: SubmitCode | null = null;

/** The code once loaded, else null: a submit after the form got focus runs synchronously, as if it had been there. */
export function contactSubmitNow(): SubmitCode | null {
  return loaded;
}

export function loadContactSubmit(): Promise<SubmitCode> {
  if (!loading) {
    const started = Promise.all([import('@site/contracts/contact'), import('../api/send-contact-message')]).then(([rules, api]) => (loaded = { ...rules, ...api }));
    // A load that failed (offline) is tried again on the next attempt.
    started.catch(() => {
      if (loading === started) loading = null;
    });
    loading = started;
  }
  return loading;
}
