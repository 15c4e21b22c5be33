import { useMutation } from '@tanstack/react-query';
import { adminSessionSchema, type AdminLoginRequest, type AdminSession } from '@site/contracts/admin';
import { errorEnvelopeSchema } from '@site/contracts/error';
import { ApiError } from '@site/ui';

/** A refused login; `retryAfterSeconds` comes from the 429's Retry-After header. */
export class LoginError extends ApiError {
  constructor(
    message: string,
    status: number,
    code: string | undefined,
    readonly retryAfterSeconds: number | null,
  ) {
    super(message, status, code);
  }
}

/** Retry-After as seconds: either a number of seconds or an HTTP date. */
function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * POST /api/admin/login. Read by hand rather than through requestJson because the gate needs the 429's
 * Retry-After header: 401 'Incorrect password', 429 too many attempts, 503 no password configured.
 */
export async function login(body: AdminLoginRequest): Promise<AdminSession> {
  let res: Response;
  try {
    res = await fetch('/api/admin/login', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new LoginError(err instanceof Error ? err.message : 'Network error', 0, undefined, null);
  }
  const json: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const env = errorEnvelopeSchema.safeParse(json);
    throw new LoginError(
      env.success ? env.data.error.message : `Request failed (${res.status})`,
      res.status,
      env.success ? env.data.error.code : undefined,
      res.status === 429 ? parseRetryAfter(res.headers.get('Retry-After')) : null,
    );
  }
  const parsed = adminSessionSchema.safeParse(json);
  if (!parsed.success) throw new LoginError('The server answered in an unexpected shape', 0, undefined, null);
  return parsed.data;
}

/** Signs in; the gate puts the answered session in the session store. */
export function useLoginMutation() {
  return useMutation({ mutationFn: login });
}
