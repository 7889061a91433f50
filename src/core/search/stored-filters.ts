import type { z } from 'zod';
import {
  companySearchParams,
  peopleSearchParams,
  type CompanySearchParams,
  type PeopleSearchParams,
} from '../../../operations/schemas/filters.js';
import { AppError } from '../../errors.js';
import { describeIssues } from '../../validation.js';

/**
 * Filters stored by an audience or a saved search, read back through the schemas of today. A list
 * stored empty before empty restriction lists were refused (docs/concepts.md, "Lists that never
 * widen") no longer fits them: it is refused where it is used, naming the field and what to change,
 * rather than read as "no filter" and widening the search.
 */
export function storedCompanyParams(stored: unknown, field: string, nextStep: string): CompanySearchParams {
  return parseStored(companySearchParams, stored, field, nextStep);
}

export function storedPeopleParams(stored: unknown, field: string, nextStep: string): PeopleSearchParams {
  return parseStored(peopleSearchParams, stored, field, nextStep);
}

function parseStored<S extends z.ZodType>(schema: S, stored: unknown, field: string, nextStep: string): z.output<S> {
  const parsed = schema.safeParse(stored);
  if (parsed.success) return parsed.data;
  const issues = describeIssues(parsed.error).map((issue) => ({ ...issue, field: `${field}.${issue.field}` }));
  throw new AppError(
    'invalid_request',
    `The stored ${field} no longer fit the filters' rules: ${issues
      .slice(0, 5)
      .map((i) => `${i.field}: ${i.message}`)
      .join('; ')}. ${nextStep} Nothing was charged.`,
    { details: { issues } },
  );
}
