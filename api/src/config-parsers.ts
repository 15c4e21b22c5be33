import { OWNERSHIP_PATTERN, ownerOfPath, ownershipTable } from '@site/contracts/route-ownership';
import { z } from 'zod';

/** The parsers of the settings table (config-schema.ts): each takes a variable's text, absent when unset or blank. */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const optionalString = z.string().optional();
export const httpUrl = z
  .url({ protocol: /^https?$/, message: 'Must be an http(s) URL' })
  .optional();
export const aSwitch = z
  .enum(['true', 'false', '1', '0'], { message: 'Must be true or false' })
  .optional()
  .transform((v) => v === 'true' || v === '1');
/** An integer from `min` to `max`, `fallback` when unset. */
export const whole = (min: number, max: number, fallback: number) =>
  z.coerce
    .number({ message: 'Must be a number' })
    .int()
    .min(min, { message: min === 0 ? 'Must be 0 or more' : `Must be at least ${min}` })
    .max(max)
    .default(fallback);

const BYTE_UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** Parses durations like `20s`, `500ms`, `1m` or `1500` (milliseconds). */
export function parseDuration(value: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/i.exec(value.trim());
  if (!m) return null;
  return Math.round(Number(m[1]) * DURATION_UNITS[(m[2] ?? 'ms').toLowerCase()]!);
}

export const duration = (fallback: string) =>
  z
    .string()
    .refine((v) => (parseDuration(v) ?? 0) > 0, { message: 'Must be a duration such as 20s, 500ms or 1m' })
    .default(fallback);

/** Parses sizes like `100kb`, `1.5mb` or `2048` (bytes). */
export function parseByteSize(value: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(value.trim());
  if (!m) return null;
  return Math.floor(Number(m[1]) * BYTE_UNITS[(m[2] ?? 'b').toLowerCase()]!);
}

export const byteSize = (fallback: string, example: string) =>
  z
    .string()
    .refine((v) => parseByteSize(v) !== null, { message: `Must be a size such as ${example}` })
    .default(fallback);

/** APP_ROUTES_<APP>: comma-separated ownership patterns, each well formed and none of the server's paths. */
export const appRoutes = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return undefined;
    const patterns = value.split(',').map((p) => p.trim()).filter(Boolean);
    const server = ownershipTable({});
    for (const pattern of patterns) {
      if (!OWNERSHIP_PATTERN.test(pattern)) ctx.addIssue({ code: 'custom', message: `"${pattern}" is not an ownership pattern (/path, /path/* or /path*)` });
      else if (ownerOfPath(server, pattern.replace(/\/?\*$/, '')) === 'server') ctx.addIssue({ code: 'custom', message: `"${pattern}" is the server's (its API, files, feed or sitemaps)` });
    }
    return patterns;
  });
