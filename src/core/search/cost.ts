import type { CompanySearchParams, PeopleSearchParams } from '../../../operations/schemas/filters.js';

/**
 * Substring terms of a search: each is compared against every candidate row that the indexed
 * filters leave, so they, not the page size, decide what a search costs the database.
 */
export function substringTerms(filters: {
  company?: CompanySearchParams | undefined;
  people?: PeopleSearchParams | undefined;
}): number {
  const company = filters.company;
  const people = filters.people;
  return (
    (company?.nameLike ? 1 : 0) +
    (company?.headquartersLocation?.length ?? 0) +
    (people?.jobTitleV2?.included.length ?? 0) +
    (people?.jobTitleV2?.excluded.length ?? 0) +
    (people?.education?.schools?.length ?? 0)
  );
}
