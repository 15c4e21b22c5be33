import { randomBytes } from 'node:crypto';

/*
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` header, `00-<trace-id>-<parent-id>-<flags>`.
 * The server reads it from a trusted proxy (like X-Request-Id), keeps the request's trace with what the request queues
 * (the owner mail, the webhook deliveries) and sends it on with each mail and delivery, each send a span of its own.
 */

export const TRACEPARENT_HEADER = 'traceparent';

/** One position in a trace: the trace, the span (parent-id on the wire), the trace flags as two lowercase hex digits. */
export interface TraceContext {
  /** 32 lowercase hex digits, not all zeros. */
  traceId: string;
  /** 16 lowercase hex digits, not all zeros. */
  spanId: string;
  /** `01` sampled, `00` not (the one flag of version 00; others are not passed on). */
  flags: '00' | '01';
}

const isLowerHex = (code: number) => (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x66);

/** `length` lowercase hex digits from `start`, not all zeros (a character loop: linear, no regex). */
function hexField(value: string, start: number, length: number): string | undefined {
  let nonZero = false;
  for (let i = start; i < start + length; i++) {
    const code = value.charCodeAt(i);
    if (!isLowerHex(code)) return undefined;
    if (code !== 0x30) nonZero = true;
  }
  return nonZero ? value.slice(start, start + length) : undefined;
}

/** Two lowercase hex digits at `start` (zeros allowed), as a number. */
function hexByte(value: string, start: number): number | undefined {
  const a = value.charCodeAt(start);
  const b = value.charCodeAt(start + 1);
  if (!isLowerHex(a) || !isLowerHex(b)) return undefined;
  return Number.parseInt(value.slice(start, start + 2), 16);
}

/** A traceparent is 55 characters in version 00; a later version may add fields after a `-`. Longer is refused unread. */
const TRACEPARENT_LENGTH = 55;
const MAX_TRACEPARENT_LENGTH = 512;

/**
 * Parses a `traceparent` header strictly: version `00` exactly 55 characters; a later version (not `ff`) read as
 * version 00 when its 56th character is `-` (the specification's rule for versions it does not know); lowercase hex
 * only, trace-id and parent-id not all zeros. Anything else (several headers, uppercase, spaces, a value over 512
 * characters) is undefined: the caller starts a new trace. Reads each character once.
 */
export function parseTraceparent(header: string | string[] | undefined): TraceContext | undefined {
  if (typeof header !== 'string' || header.length < TRACEPARENT_LENGTH || header.length > MAX_TRACEPARENT_LENGTH) return undefined;
  const version = hexByte(header, 0);
  if (version === undefined || version === 0xff) return undefined;
  if (version === 0 ? header.length !== TRACEPARENT_LENGTH : header.length > TRACEPARENT_LENGTH && header[TRACEPARENT_LENGTH] !== '-') return undefined;
  if (header[2] !== '-' || header[35] !== '-' || header[52] !== '-') return undefined;
  const traceId = hexField(header, 3, 32);
  const spanId = hexField(header, 36, 16);
  const flags = hexByte(header, 53);
  if (!traceId || !spanId || flags === undefined) return undefined;
  return { traceId, spanId, flags: flags & 1 ? '01' : '00' };
}

/** The `traceparent` header value of this position (version 00). */
export function formatTraceparent(trace: TraceContext): string {
  return `00-${trace.traceId}-${trace.spanId}-${trace.flags}`;
}

/** Random bytes drawn 4 KB at a time: a draw per request was a visible share of a warm page's CPU. */
let pool = Buffer.alloc(0);
let used = 0;
function take(bytes: number): Buffer {
  if (used + bytes > pool.length) {
    pool = randomBytes(4096);
    used = 0;
  }
  used += bytes;
  return pool.subarray(used - bytes, used);
}

function randomHex(bytes: number): string {
  for (;;) {
    const hex = take(bytes).toString('hex');
    // All zeros is invalid on the wire (a 2^-64 chance at least): draw again.
    if (/[^0]/.test(hex)) return hex;
  }
}

/** A new trace-id: 16 random bytes. */
export const newTraceId = () => randomHex(16);
/** A new span id (parent-id on the wire): 8 random bytes. */
export const newSpanId = () => randomHex(8);

/**
 * The trace of a request: the trusted proxy's trace continued (a span of our own in it, its sampled flag kept), or a
 * new trace, marked sampled (its id is in the log lines of the request and of what it queued).
 */
export function requestTrace(parent: TraceContext | undefined): TraceContext {
  return parent ? { traceId: parent.traceId, spanId: newSpanId(), flags: parent.flags } : { traceId: newTraceId(), spanId: newSpanId(), flags: '01' };
}

/** The same trace, one span further: the `traceparent` of one send (a mail, a delivery attempt) made from `trace`. */
export function childTrace(trace: TraceContext): TraceContext {
  return { traceId: trace.traceId, spanId: newSpanId(), flags: trace.flags };
}
