import type { z } from 'zod';
import type { FieldIssue } from './error';

/*
 * A query parameter is text; its schema coerces it with z.coerce.number(), which reads `1e1`, `0x10` and ` 5` as numbers.
 * The API description says `integer` (or `number`), so only decimal digits are taken: the rest is refused by name.
 */

const WHOLE_NUMBER = /^-?\d+$/;
const DECIMAL_NUMBER = /^-?\d+(?:\.\d+)?$/;

type Def = { type: string; innerType?: z.ZodType; coerce?: boolean; checks?: Array<{ _zod: { def: { format?: string } } }> };

/** How a parameter that its schema coerces to a number must be written (undefined for any other parameter). */
function numberRule(schema: z.ZodType | undefined): RegExp | undefined {
  let def = schema?._zod.def as Def | undefined;
  while (def && (def.type === 'default' || def.type === 'optional' || def.type === 'prefault') && def.innerType) def = def.innerType._zod.def as Def;
  if (def?.type !== 'number' || !def.coerce) return undefined;
  return def.checks?.some((c) => c._zod.def.format === 'safeint') ? WHOLE_NUMBER : DECIMAL_NUMBER;
}

/** The query's numeric parameters (as `schema` reads them) that are not written in decimal digits, one issue each. */
export function queryNumberIssues(schema: z.ZodObject, query: Record<string, unknown>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const name of Object.keys(schema.shape)) {
    const value = query[name];
    const rule = numberRule(schema.shape[name] as z.ZodType);
    if (rule && typeof value === 'string' && value !== '' && !rule.test(value))
      issues.push({ path: name, message: rule === WHOLE_NUMBER ? 'must be a whole number in decimal digits' : 'must be a number in decimal digits' });
  }
  return issues;
}
