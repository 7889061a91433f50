import type { z } from 'zod';
import { AppError, type FieldIssue } from './errors.js';

/**
 * Turns zod issues into `{field, message}` pairs whose field is a dotted path the caller
 * can find in their own request (`searchParams.employeeCountV2.min`, `pageSize`).
 */
export function describeIssues(error: z.ZodError): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        issues.push({ field: base ? `${base}.${key}` : key, message: 'unknown field' });
      }
      continue;
    }
    issues.push({ field: base || '(body)', message: readableMessage(issue) });
  }
  return issues;
}

function readableMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return `required: expected ${issue.expected}`;
  if (issue.code === 'invalid_value' && 'values' in issue) {
    return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (issue.code === 'too_big' && (issue.origin === 'string' || issue.origin === 'array')) {
    return `too long: at most ${String(issue.maximum)} ${issue.origin === 'string' ? 'characters' : 'items'}`;
  }
  return issue.message;
}

export function validationError(error: z.ZodError): AppError {
  const issues = describeIssues(error);
  const summary = issues.slice(0, 5).map((i) => `${i.field}: ${i.message}`).join('; ');
  return new AppError('invalid_request', `Invalid request: ${summary}${issues.length > 5 ? '; ...' : ''}`, { details: { issues } });
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}
