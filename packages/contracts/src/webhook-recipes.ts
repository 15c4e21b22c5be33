/**
 * The recipes that publish a post through the signed incoming webhook (`POST /api/webhook`), as docs/integrations.md
 * and the admin panel's webhook docs show them: one text, so what the guide says and what the panel copies agree.
 * api/src/incoming-webhook/__tests__/n8n-recipes.test.ts runs each against a server, two posts the same day.
 *
 * Every recipe sends one Idempotency-Key per post: the SHA-256 (hex) of the exact body. A retry of the same post
 * (curl run again, n8n's "Retry On Fail", a resent execution) sends the same key and gets the first answer back
 * instead of a second copy; another post has another body, so another key. A key made from the date or the n8n
 * execution would be shared by two posts (the same day, or one execution with several items), and the server answers
 * the second with 409 `idempotency_conflict` (api/src/incoming-webhook/incoming-webhook-service.ts).
 */

/** What stands for the secret in every recipe: the server's WEBHOOK_SECRET, typed in by the reader. */
export const WEBHOOK_SECRET_PLACEHOLDER = 'the value of WEBHOOK_SECRET on the server';

/** A shell word in single quotes that holds `text` as it is (a `'` inside becomes `'\''`). */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The bash recipe for one post: `body` is the exact JSON sent and signed; its SHA-256 is the Idempotency-Key, so the
 * recipe can be run again for the same post (a retry, answered with the first result) and edited for the next one.
 */
export function webhookCurlRecipe(endpoint: string, body: string): string {
  return `SECRET=${shellQuote(WEBHOOK_SECRET_PLACEHOLDER)}
BODY=${shellQuote(body)}
# One Idempotency-Key per post: the SHA-256 of its body. Run again for the same post (a retry), it sends the same
# key and gets the first answer back, not a second copy; the next post has another body, so another key.
KEY=$(printf '%s' "$BODY" | openssl dgst -sha256 -hex | sed 's/^.* //')
T=$(date +%s)
SIG=$(printf '%s.%s' "$T" "$BODY" | openssl dgst -sha256 -hmac "$SECRET" -hex | sed 's/^.* //')
curl -sS -X POST ${shellQuote(endpoint)} \\
  -H 'Content-Type: application/json' \\
  -H "X-Webhook-Signature: t=$T,v1=$SIG" \\
  -H "Idempotency-Key: $KEY" \\
  --data-binary "$BODY"`;
}

/** The body both n8n recipes build from what earlier nodes hand over (an AI step's article, say), as a draft. */
const N8N_BODY_FIELDS = [
  'title: $json.title',
  'excerpt: $json.excerpt',
  'content: $json.html',
  "author: 'Tri-Valley AI Team'",
  "category: 'AI Automation'",
  'metaDescription: $json.metaDescription',
  'keywords: $json.keywords ?? []',
  "status: 'draft'",
];

/**
 * n8n on any plan, the free Community edition included: three built-in nodes, no code, no `$vars`, no environment
 * setting. One line per field, `Node › Field: value`; `{{ }}` is an n8n expression. The secret lives in a Crypto
 * credential (n8n stores credentials encrypted); `.hash('sha256')` is n8n's own string function (hex).
 */
export const N8N_NODES_RECIPE = `Edit Fields (Set) › t (Number): {{ Math.floor(Date.now() / 1000) }}
Edit Fields (Set) › body (String): {{ JSON.stringify({ ${N8N_BODY_FIELDS.join(', ')} }) }}
Crypto › Action: Hmac · Type: SHA256 · Encoding: HEX · Property Name: v1 · Value: {{ $json.t }}.{{ $json.body }}
Crypto › Credential: a Crypto credential whose Hmac Secret is ${WEBHOOK_SECRET_PLACEHOLDER}
HTTP Request › X-Webhook-Signature: t={{ $json.t }},v1={{ $json.v1 }}
HTTP Request › Idempotency-Key: {{ $json.body.hash('sha256') }}
HTTP Request › Body (Raw, application/json): {{ $json.body }}`;

/**
 * The alternative for an n8n that has what it needs: `$vars` (n8n variables: paid plans) and `require('crypto')`
 * (self-hosted, with NODE_FUNCTION_ALLOW_BUILTIN=crypto). "Run Once for Each Item": there `$json` is the item and the
 * node returns one object.
 */
export const N8N_CODE_RECIPE = `// n8n Code node (JavaScript), Mode: Run Once for Each Item, placed before the HTTP Request node.
// Needs NODE_FUNCTION_ALLOW_BUILTIN=crypto (self-hosted n8n) and $vars (n8n variables, paid plans only).
const crypto = require('crypto');
const secret = $vars.WEBHOOK_SECRET;
const body = JSON.stringify({
${N8N_BODY_FIELDS.map((field) => `  ${field},`).join('\n')}
});
const t = Math.floor(Date.now() / 1000);
const v1 = crypto.createHmac('sha256', secret).update(\`\${t}.\${body}\`).digest('hex');
// One Idempotency-Key per post: the SHA-256 of its body (a retry of the same post sends the same key).
const key = crypto.createHash('sha256').update(body).digest('hex');
return { json: { body, signature: \`t=\${t},v1=\${v1}\`, key } };`;
