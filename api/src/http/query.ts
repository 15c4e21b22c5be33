import type { ParsedUrlQuery } from 'node:querystring';
import type { z } from 'zod';
import { describeIssues, type FieldIssue } from '@site/contracts/error';
import { queryNumberIssues } from '@site/contracts/query-numbers';
import { InvalidInputError } from '../lib/domain-errors';

/**
 * A request's query (`ctx.query`) parsed with its contract schema, the one way routes read query parameters.
 *
 * Every parameter these schemas read takes one value. Given twice (`?limit=1&limit=2`), Koa hands over a list,
 * and which value was meant is a guess: the request is refused with a 400 naming the parameter, instead of one
 * value (or the default) being used in silence. Parameters the schema does not read are ignored, repeated or not.
 * With `emptyAsAbsent`, `?q=` counts as no `q` at all (the public list's links and forms send empty fields).
 */
export function parseQuery<S extends z.ZodObject>(schema: S, query: ParsedUrlQuery, options: { emptyAsAbsent?: boolean } = {}): z.output<S> {
  const issues: FieldIssue[] = [];
  const values: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = query[name];
    if (Array.isArray(value)) issues.push({ path: name, message: `must be given once, got ${value.length} values` });
    else if (value !== undefined && !(options.emptyAsAbsent && value === '')) values[name] = value;
  }
  issues.push(...queryNumberIssues(schema, values));
  if (issues.length > 0) throw new InvalidInputError(describeIssues(issues), { details: issues });
  return schema.parse(values);
}
