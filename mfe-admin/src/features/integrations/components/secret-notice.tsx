import { ShownOnceNotice } from '../../../components/shown-once-notice';

/** The signing secret, shown once after creating or regenerating an endpoint. */
export function SecretNotice({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <ShownOnceNotice
      title="Copy the signing secret now: it is not shown again."
      hint="Your receiver checks each delivery's X-Webhook-Signature with it. Lost it? Regenerate a new one."
      label="Signing secret"
      value={secret}
      onDone={onDone}
    />
  );
}
