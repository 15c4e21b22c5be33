import type { z } from 'zod';

/*
 * Characters a text field must not carry, checked at the contract so every endpoint and form agrees:
 * - a lone UTF-16 surrogate (half of an emoji; JSON can encode one as "\ud800") breaks encodeURIComponent, UTF-8
 *   storage and every consumer downstream;
 * - control characters (C0, DEL, C1) hide or fake content in the owner's inbox, mails and logs (NUL, ESC …);
 *   a multi-line field keeps tab and line breaks;
 * - bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) reorder what a reader sees
 *   ("Trojan Source"): a name can show one thing and be another.
 */

export const TEXT_MESSAGES = {
  loneSurrogate: 'contains an invalid character (an unpaired UTF-16 surrogate, e.g. half of an emoji)',
  control: 'must not contain control or text-direction characters',
} as const;

const LONE_SURROGATE = /\p{Cs}/u;
/* eslint-disable no-control-regex -- matching control characters is the point of these patterns */
const CONTROL_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const CONTROL_MULTI_LINE = /[\u0000-\u0008\v\f\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
const CONTROL_ONLY_MULTI_LINE = /[\u0000-\u0008\v\f\u000e-\u001f\u007f-\u009f]/u;
/* eslint-enable no-control-regex */

/*
 * The same rules as JSON Schema `pattern`s (ECMA-262 with the `u` flag), for the API description: zod cannot turn a
 * refinement into JSON Schema, so `safeChars()` attaches the pattern beside the check. Built from the ranges above so
 * the two cannot drift; a contracts test checks them against `textProblem` on arbitrary strings.
 */
const CONTROL_RANGES = '\\u0000-\\u001f\\u007f-\\u009f';
const BIDI_RANGES = '\\u202a-\\u202e\\u2066-\\u2069';
const MULTI_LINE_CONTROL_RANGES = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f';
const SURROGATE_RANGE = '\\ud800-\\udfff';
/** White space that `String.prototype.trim` removes and that is no control character (tab and line breaks, when allowed). */
const trimmedSpace = (multiline?: boolean) => `[${multiline ? '\\t\\n\\r' : ''} \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]`;

/**
 * The JSON Schema `pattern` of `safeText(options)`. With `minLength`, also "at least that many characters once
 * surrounding white space is trimmed" (the rule services apply to required text), which `minLength` alone cannot say.
 */
export function textPattern(options: TextOptions & { minLength?: number } = {}): string {
  const refused = `${options.multiline ? MULTI_LINE_CONTROL_RANGES : CONTROL_RANGES}${options.multiline && options.bidi ? '' : BIDI_RANGES}${SURROGATE_RANGE}`;
  const min = options.minLength ?? 0;
  if (min === 0) return `^[^${refused}]*$`;
  const edge = `[^\\s${refused}]`;
  const middle = min === 1 ? `(?:[^${refused}]*${edge})?` : `[^${refused}]{${min - 2},}${edge}`;
  const space = trimmedSpace(options.multiline);
  return `^${space}*${edge}${middle}${space}*$`;
}

/**
 * `schema.apply(safeChars(options))`: the `safeText(options)` check, plus its JSON Schema `pattern` for the API
 * description (with `minLength`, the trimmed minimum the schema's own `.trim().min()` enforces). Behaviour and messages
 * are `safeText`'s.
 */
export function safeChars(options: TextOptions & { minLength?: number } = {}) {
  const text: TextOptions = { multiline: options.multiline, bidi: options.bidi };
  return <T extends z.ZodString>(schema: T): T => schema.superRefine(safeText(text)).meta({ pattern: textPattern(options) }) as T;
}

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

export interface TextOptions {
  /** Tab, CR and LF allowed. */
  multiline?: boolean;
  /** Bidi overrides and isolates allowed (only with `multiline`: HTML content, where right-to-left writing uses them). */
  bidi?: boolean;
}

/** What is wrong with a text value, in words a caller can act on; undefined when it is fine. */
export function textProblem(value: string, options: TextOptions = {}): string | undefined {
  if (LONE_SURROGATE.test(value)) return TEXT_MESSAGES.loneSurrogate;
  const pattern = options.multiline ? (options.bidi ? CONTROL_ONLY_MULTI_LINE : CONTROL_MULTI_LINE) : CONTROL_SINGLE_LINE;
  const control = pattern.exec(value);
  if (control) return `${TEXT_MESSAGES.control} (found ${codePoint(control[0])})`;
  return undefined;
}

/**
 * A zod check for `.superRefine(...)` on a string field: refuses lone surrogates, control characters (tab and line
 * breaks allowed when `multiline`) and bidi override/isolate characters.
 */
export function safeText(options: TextOptions = {}) {
  return (value: string, ctx: z.RefinementCtx) => {
    const problem = textProblem(value, options);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };
}

/**
 * Whether a URL path segment can name a stored record (an id): letters, digits and `_ . : -`, at most 128. Anything
 * else cannot exist, so a service answers "not found" without asking the database (PostgreSQL refuses NUL in text).
 */
export function isRecordKey(value: string): boolean {
  return /^[A-Z0-9][\w.:-]{0,127}$/i.test(value);
}

/** A lone surrogate only (for fields such as passwords and HTML, where other characters are the writer's business). */
export function wellFormedText() {
  return (value: string, ctx: z.RefinementCtx) => {
    if (LONE_SURROGATE.test(value)) ctx.addIssue({ code: 'custom', message: TEXT_MESSAGES.loneSurrogate });
  };
}
