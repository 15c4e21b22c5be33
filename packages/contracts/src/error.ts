import { z } from 'zod';

/** The one error shape every API failure answers with. */
export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export type FieldIssue = { path: string; message: string };

/** Flattens zod issues to `field: message` pairs a person can read. */
export function fieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }));
}

/** One sentence naming every field that failed, e.g. "Invalid email: Enter a valid email address". */
export function describeIssues(issues: FieldIssue[]): string {
  return issues.map((i) => (i.path === '(body)' ? i.message : `${i.path}: ${i.message}`)).join('; ');
}
