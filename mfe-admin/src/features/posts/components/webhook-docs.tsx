import type { ReactNode } from 'react';
import { BUSINESS_TIME_ZONE_LABEL, businessLocalToIso, toBusinessLocalInput } from '@site/contracts/post-schedule';
import { POST_MIN_RULES, type WebhookPostInput } from '@site/contracts/posts';
import { N8N_CODE_RECIPE, N8N_NODES_RECIPE, webhookCurlRecipe } from '@site/contracts/webhook-recipes';
import { Button, siteOrigin } from '@site/ui';
import { CopyBlock, copyText } from '../../../components/copy-block';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { useWebhookExampleQuery } from '../api/get-webhook-example';

/** Header the API reads (api/src/incoming-webhook/incoming-webhook-service.ts, SIGNATURE_HEADER). */
const SIGNATURE_HEADER = 'X-Webhook-Signature';
const TOLERANCE_SECONDS = 300;

const FIELD_NOTES: Record<(typeof POST_MIN_RULES)[number]['field'], string> = {
  title: 'text',
  excerpt: 'text, shown on the cards',
  content: 'HTML, sanitized on arrival',
  author: 'text',
  category: 'text, e.g. AI Automation',
  metaDescription: 'text for search engines',
};

/**
 * The body of the examples: the webhook's example in the API description (GET /api/openapi.json), as a draft, so
 * trying the curl example publishes nothing.
 */
function sampleBody(example: WebhookPostInput): string {
  return JSON.stringify({ ...example, status: 'draft' });
}

/** A time a week from now at 9:00 in the business's zone, so the example is always one the server accepts. */
function examplePublishAt(now: Date): string {
  const day = toBusinessLocalInput(new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000)).slice(0, 10);
  return businessLocalToIso(`${day}T09:00`) ?? `${day}T09:00:00-08:00`;
}

function scheduledExample(example: WebhookPostInput, publishAt: string): string {
  return JSON.stringify({ ...example, status: 'scheduled', publishAt }, null, 2);
}

const code = 'rounded bg-surface-muted px-1.5 py-0.5 font-mono text-[0.85em] text-fg';

/**
 * How an n8n workflow (or any sender) publishes to this site: endpoint, fields, signature, a curl example and the
 * n8n setup, the free edition's nodes first. The recipes are docs/integrations.md's (one text:
 * packages/contracts/src/webhook-recipes.ts). The secret itself lives only in the server's environment and is never
 * shown here.
 */
export function WebhookDocs() {
  // The site's public address (PUBLIC_ORIGIN, as the server writes it on the page), not the one this admin was opened
  // at: an admin reached as 127.0.0.1 or through an internal name would hand n8n an address it cannot reach.
  const endpoint = `${siteOrigin()}/api/webhook`;
  const publishAt = examplePublishAt(new Date());
  const example = useWebhookExampleQuery();
  /** An example block: the example body once the API description has arrived. */
  const withExample = (block: (body: WebhookPostInput) => ReactNode) => {
    if (example.data) return block(example.data);
    if (example.isError)
      return <LoadFailed title="The example could not be loaded." message="It comes from the API description (/api/openapi.json)." onRetry={() => void example.refetch()} />;
    return <LoadingRows label="Loading the example" rows={2} />;
  };
  return (
    <Panel
      id="webhook"
      title="Publishing from n8n (webhook)"
      description="An automation can create posts here by calling this site's webhook. Each call is signed with the shared secret, so nobody else can post."
    >
      <div className="space-y-6 text-sm text-fg">
        <div>
          <h3 className="font-semibold">Endpoint</h3>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className={`${code} break-all`}>POST {endpoint}</code>
            <Button size="sm" variant="secondary" onClick={() => copyText(endpoint)} aria-label="Copy endpoint URL">
              Copy
            </Button>
          </div>
        </div>

        <div className="grid gap-6 md:grid-cols-2">
          <div>
            <h3 className="font-semibold">Required fields (JSON body)</h3>
            <ul className="mt-2 space-y-1.5">
              {POST_MIN_RULES.map((r) => (
                <li key={r.field}>
                  <code className={code}>{r.field}</code> <span className="text-muted-fg">{FIELD_NOTES[r.field]}, at least {r.min} characters</span>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3 className="font-semibold">Optional fields</h3>
            <ul className="mt-2 space-y-1.5">
              <li>
                <code className={code}>keywords</code> <span className="text-muted-fg">array of strings (shown as tags)</span>
              </li>
              <li>
                <code className={code}>featuredImage</code> <span className="text-muted-fg">http(s) URL</span>
              </li>
              <li>
                <code className={code}>ogImage</code> <span className="text-muted-fg">http(s) URL for link previews</span>
              </li>
              <li>
                <code className={code}>storeImages</code>{' '}
                <span className="text-muted-fg">true to fetch featuredImage and ogImage once and keep them in the Media library</span>
              </li>
              <li>
                <code className={code}>status</code> <span className="text-muted-fg">"draft" (default), "published" or "scheduled"</span>
              </li>
              <li>
                <code className={code}>publishAt</code>{' '}
                <span className="text-muted-fg">
                  with <code className={code}>status: "scheduled"</code> only, and then required: when the site publishes the post, as ISO 8601 with its UTC
                  offset (e.g. <code className={`${code} break-all`}>{publishAt}</code>), in the future and at most a year ahead
                </span>
              </li>
            </ul>
          </div>
        </div>

        <div>
          <h3 className="font-semibold">Signature</h3>
          <p className="mt-2 text-muted-fg">
            Send the header <code className={code}>{SIGNATURE_HEADER}: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</code>, where <code className={code}>&lt;hex&gt;</code>{' '}
            is the HMAC-SHA256 of the string <code className={code}>&lt;t&gt;.&lt;raw body&gt;</code> (the exact bytes you send), keyed with the server's{' '}
            <code className={code}>WEBHOOK_SECRET</code>. A missing or wrong signature, or a <code className={code}>t</code> more than {TOLERANCE_SECONDS}{' '}
            seconds from the server's clock, is refused (401). A signature is accepted once: the same signed call sent again creates nothing and answers the
            first result. Add an <code className={code}>Idempotency-Key</code> header, one per post (the examples use the SHA-256 of the body), so a
            retry of that post with a fresh signature answers the first result instead of creating a duplicate. A key two posts share, such as the
            date, makes the second a 409.
          </p>
          <p className="mt-2 text-muted-fg">
            Answers: <strong className="text-fg">201</strong> with <code className={code}>{'{ id, slug, status, adminUrl, url }'}</code>:{' '}
            <code className={code}>adminUrl</code> is the post's edit page in this panel; <code className={code}>url</code>, its public page, comes only
            with a published post (a draft has none until you publish it here). 400 with the message 'Validation failed: '
            and the broken rules, e.g. <code className={code}>Validation failed: Title must be at least 5 characters long</code>, and each field, rule and
            value in <code className={code}>error.details</code>; 401 bad signature; 409 an
            Idempotency-Key reused with another body; 429 more than 30 deliveries a minute; 503 when <code className={code}>WEBHOOK_SECRET</code> is not set on
            the server.
          </p>
          <p className="mt-2 text-muted-fg">
            Every field, answer and example is also in the machine-readable API description:{' '}
            <a className="font-medium text-fg underline underline-offset-2" href="/api/openapi.json" target="_blank" rel="noopener">
              OpenAPI 3.1 (/api/openapi.json)
            </a>
            , which n8n and API tools can import.
          </p>
        </div>

        {withExample((body) => (
          <CopyBlock label="curl example (bash)" code={webhookCurlRecipe(endpoint, sampleBody(body))} />
        ))}

        <div>
          <h3 className="font-semibold">Scheduling a post</h3>
          <p className="mt-2 text-muted-fg">
            Send <code className={code}>status: "scheduled"</code> with <code className={code}>publishAt</code>: the post waits as scheduled (listed here
            with its time) and the site publishes it at that moment, within a few seconds. <code className={code}>publishAt</code> is an ISO 8601 date and
            time with its offset (<code className={code}>Z</code> or <code className={code}>±hh:mm</code>; the business works in {BUSINESS_TIME_ZONE_LABEL},
            -08:00 in winter and -07:00 in summer). A time in the past, more than a year ahead, or without an offset is refused with 400 and a message
            saying what was received, e.g. <code className={code}>Validation failed: publishAt must be in the future (…)</code>. The answer then holds{' '}
            <code className={code}>publishAt</code> (in UTC) and no <code className={code}>url</code>: the post has its public page from that time on. You can
            publish it at once, move it or unschedule it from this panel.
          </p>
        </div>

        {withExample((body) => (
          <CopyBlock label="Scheduled post (JSON body)" code={scheduledExample(body, publishAt)} />
        ))}

        <div>
          <h3 className="font-semibold">n8n setup (any plan, the free edition included)</h3>
          <p className="mt-2 text-muted-fg">Three built-in nodes, no code and no n8n variables:</p>
          <ol className="mt-2 list-decimal space-y-1.5 pl-5 text-muted-fg">
            <li>
              An <strong className="text-fg">Edit Fields (Set)</strong> node writes the body once, as a string, and the time: fields{' '}
              <code className={code}>t</code> (Number) and <code className={code}>body</code> (String), as below.
            </li>
            <li>
              A <strong className="text-fg">Crypto</strong> node signs exactly that string: Action Hmac, Type SHA256, Encoding HEX, Property Name{' '}
              <code className={code}>v1</code>, Value <code className={code}>{'{{ $json.t }}.{{ $json.body }}'}</code>. Its credential is a Crypto credential
              whose Hmac Secret is the server's WEBHOOK_SECRET (n8n stores it encrypted).
            </li>
            <li>
              An <strong className="text-fg">HTTP Request</strong> node: method <code className={code}>POST</code>, URL <code className={`${code} break-all`}>{endpoint}</code>,
              headers <code className={code}>{SIGNATURE_HEADER}: {'t={{ $json.t }},v1={{ $json.v1 }}'}</code> and{' '}
              <code className={code}>Idempotency-Key: {"{{ $json.body.hash('sha256') }}"}</code> (one key per post).
            </li>
            <li>
              Body content type <strong className="text-fg">Raw</strong>, content type <code className={code}>application/json</code>, body{' '}
              <code className={code}>{'{{ $json.body }}'}</code> (not "JSON": it would re-serialize the body and break the signature).
            </li>
            <li>Turn on "Retry On Fail": a retry sends the same key, so it gets the first answer instead of a second post.</li>
          </ol>
        </div>
        <CopyBlock label="n8n nodes (any plan)" code={N8N_NODES_RECIPE} />

        <div>
          <h3 className="font-semibold">Alternative: a Code node</h3>
          <p className="mt-2 text-muted-fg">
            Where your n8n has both, a Code node can build and sign the body instead of the Edit Fields and Crypto nodes. It reads{' '}
            <code className={code}>$vars</code> (n8n variables, paid plans only) and needs <code className={code}>NODE_FUNCTION_ALLOW_BUILTIN=crypto</code>{' '}
            (self-hosted n8n). Set its Mode to Run Once for Each Item; the HTTP Request node then sends{' '}
            <code className={code}>{'{{ $json.signature }}'}</code> and <code className={code}>{'{{ $json.key }}'}</code> as the two headers.
          </p>
        </div>
        <CopyBlock label="n8n Code node (alternative)" code={N8N_CODE_RECIPE} />
      </div>
    </Panel>
  );
}
