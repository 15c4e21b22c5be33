/** A failed API call: `status` 0 means the network or the response body failed. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What checks an answer: a contract's zod schema, or a zod-free check with the same `safeParse`. */
export interface AnswerSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/**
 * Calls the API and parses the answer with the contract schema. Error answers become an ApiError with the
 * server's own message from the error envelope. `schema` may be a loader (`() => import(…).then(…)`): the contract,
 * and zod with it, then load beside the request instead of with the page.
 */
export async function requestJson<T>(
  url: string,
  schema: AnswerSchema<T> | (() => Promise<AnswerSchema<T>>),
  init: RequestInit & { json?: unknown } = {},
): Promise<T> {
  const { json, headers, ...rest } = init;
  const checker = typeof schema === 'function' ? schema() : Promise.resolve(schema);
  // A loader that fails (offline) is reported with the request, not as an unhandled rejection before it.
  checker.catch(() => undefined);
  let res: Response;
  try {
    res = await fetch(url, {
      ...rest,
      headers: { Accept: 'application/json', ...(json !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body: json !== undefined ? JSON.stringify(json) : rest.body,
    });
  } catch (err) {
    throw new ApiError(err instanceof Error ? err.message : 'Network error', 0);
  }
  let body: unknown;
  try {
    body = res.status === 204 ? undefined : await res.json();
  } catch {
    throw new ApiError(`Unexpected response (${res.status})`, res.ok ? 0 : res.status);
  }
  if (!res.ok) throw await errorFromEnvelope(body, res.status);
  let check: AnswerSchema<T>;
  try {
    check = await checker;
  } catch (err) {
    throw new ApiError(err instanceof Error ? err.message : 'Network error', 0);
  }
  const parsed = check.safeParse(body);
  if (!parsed.success) throw new ApiError('The server answered in an unexpected shape', 0);
  return parsed.data;
}

/**
 * The ApiError of an error answer, with the server's message when the body is the error envelope. The contract is
 * loaded here, on the error path, not with @site/ui: @site/ui is on every page and must not pull zod in (the
 * caller's own schema brings zod when a request is made).
 */
async function errorFromEnvelope(body: unknown, status: number): Promise<ApiError> {
  try {
    const { errorEnvelopeSchema } = await import('@site/contracts/error');
    const env = errorEnvelopeSchema.safeParse(body);
    if (env.success) return new ApiError(env.data.error.message, status, env.data.error.code, env.data.error.details);
  } catch {
    // the contract's chunk did not load (offline): the status still says what failed
  }
  return new ApiError(`Request failed (${status})`, status);
}
