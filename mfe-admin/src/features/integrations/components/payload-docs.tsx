import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, WEBHOOK_PAYLOAD_EXAMPLES, WEBHOOK_VERIFY_SNIPPET } from '@site/contracts/webhooks-out';
import { CopyBlock } from '../../../components/copy-block';
import { Panel } from '../../../components/panel';

/** What each event sends, how deliveries are signed and retried, and the receiving side's check in Node. */
export function PayloadDocs() {
  return (
    <Panel
      title="Events and payloads"
      description={
        <>
          Each event is a POST with a JSON body, signed like the site&apos;s own incoming webhook. The full description is in the{' '}
          <a className="font-semibold text-primary-soft-fg underline" href="/api/openapi.json">
            OpenAPI document
          </a>{' '}
          (its <code>webhooks</code> section).
        </>
      }
    >
      <div className="space-y-4 text-sm text-fg">
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <code>X-Webhook-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</code>, where v1 is HMAC-SHA256 of <code>t + &quot;.&quot; + raw body</code> with the
            endpoint&apos;s secret.
          </li>
          <li>
            <code>X-Webhook-Event</code> names the event; <code>X-Webhook-Id</code> is the event id, the same on every retry and redelivery: ignore ids you have
            already handled.
          </li>
          <li>
            <code>traceparent</code> (W3C Trace Context) carries the trace of what caused the event: a contact message&apos;s delivery has the same trace id as its owner mail.
          </li>
          <li>Any 2xx answer is a delivery. Network errors, timeouts (10 s), 5xx and 429 are retried with growing pauses for 24 hours (Retry-After is honoured); other 4xx are not retried. Redirects are not followed.</li>
          <li>An endpoint whose every delivery fails for 24 hours is disabled and an alert is raised.</li>
        </ul>
        <CopyBlock label="Verify a delivery (Node)" code={WEBHOOK_VERIFY_SNIPPET} />
        <div className="space-y-2">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <details key={type} className="rounded-xl border border-border p-3">
              <summary className="cursor-pointer">
                <code className="font-semibold">{type}</code> <span className="text-muted-fg">— {WEBHOOK_EVENT_DESCRIPTIONS[type]}</span>
              </summary>
              <div className="mt-2">
                <CopyBlock label={`${type} example`} code={JSON.stringify(WEBHOOK_PAYLOAD_EXAMPLES[type], null, 2)} />
              </div>
            </details>
          ))}
        </div>
      </div>
    </Panel>
  );
}
