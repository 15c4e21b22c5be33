import type { z } from 'zod';
import { errorEnvelopeSchema } from '@site/contracts/error';

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

/**
 * Calls the API and parses the answer with the contract schema. Error answers become an ApiError with the
 * server's own message from the error envelope.
 */
export async function requestJson<S extends z.ZodType>(
  url: string,
  schema: S,
  init: RequestInit & { json?: unknown } = {},
): Promise<z.infer<S>> {
  const { json, headers, ...rest } = init;
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
  if (!res.ok) {
    const env = errorEnvelopeSchema.safeParse(body);
    throw env.success
      ? new ApiError(env.data.error.message, res.status, env.data.error.code, env.data.error.details)
      : new ApiError(`Request failed (${res.status})`, res.status);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError('The server answered in an unexpected shape', 0);
  return parsed.data;
}
