import { Button } from '@site/ui';
import { CopyBlock } from '../../../components/copy-block';

/** The signing secret, shown once after creating or regenerating an endpoint. */
export function SecretNotice({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div role="status" className="space-y-3 rounded-xl border border-warning/50 bg-warning-soft p-4 text-sm text-fg">
      <p className="font-semibold">Copy the signing secret now: it is not shown again.</p>
      <p className="text-muted-fg">Your receiver checks each delivery&apos;s X-Webhook-Signature with it. Lost it? Regenerate a new one.</p>
      <CopyBlock label="Signing secret" code={secret} />
      <Button size="sm" variant="secondary" onClick={onDone}>
        I have copied it
      </Button>
    </div>
  );
}
