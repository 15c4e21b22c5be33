import { mediaItemSchema, type MediaItem } from '@site/contracts/media';
import { ApiError } from '@site/ui';
import { useSessionStore } from './session-store';

/** A refused or failed upload; `retryAfterSeconds` is the server's Retry-After (a 503 `media_busy`, a 429), when it sent one. */
export class UploadError extends ApiError {
  constructor(
    message: string,
    status: number,
    code?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message, status, code);
    this.name = 'UploadError';
  }
}

/** Retry-After as seconds: a number of seconds, or an HTTP date. */
function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * POST /api/admin/media (multipart, field `file`, optional `alt`). An XMLHttpRequest, not fetch: only it reports
 * upload progress. Errors are ApiErrors with the server's message, as `adminRequest`'s are (an answer's error an
 * UploadError, with its Retry-After); a 401 closes the panel.
 */
export function uploadMedia(file: File, options: { alt?: string; onProgress?: (fraction: number) => void; signal?: AbortSignal } = {}): Promise<MediaItem> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/admin/media');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError('Network error', 0));
    xhr.onabort = () => reject(new ApiError('Upload cancelled', 0));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        reject(new ApiError(`Unexpected response (${xhr.status})`, xhr.status >= 400 ? xhr.status : 0));
        return;
      }
      if (xhr.status >= 400) {
        const error = (body as { error?: { message?: unknown; code?: unknown } } | null)?.error;
        if (xhr.status === 401) useSessionStore.getState().expire();
        reject(
          new UploadError(
            typeof error?.message === 'string' ? error.message : `Upload failed (${xhr.status})`,
            xhr.status,
            typeof error?.code === 'string' ? error.code : undefined,
            retryAfterSeconds(xhr.getResponseHeader('Retry-After')),
          ),
        );
        return;
      }
      const parsed = mediaItemSchema.safeParse(body);
      if (parsed.success) resolve(parsed.data);
      else reject(new ApiError('The server answered in an unexpected shape', 0));
    };
    options.signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.set('file', file);
    if (options.alt) form.set('alt', options.alt);
    xhr.send(form);
  });
}
