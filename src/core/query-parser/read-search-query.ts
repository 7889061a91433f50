import {
  companySearchParams,
  peopleSearchParams,
  type CompanySearchParams,
  type CurrentCompany,
  type PeopleSearchParams,
} from '../../../operations/schemas/filters.js';
import type { Queryable } from '../../store/db.js';
import { countCompanies, countPeople, exactCountBound, type CountResult } from '../search/count.js';
import { parseSearchQuery, type Interpretation, type PlanKind, type Unsupported } from './parse-search-query.js';

/**
 * A sentence read into filters that the searches accept as they are: every filter the parser
 * produced is checked against the searches' own schemas, and one they would refuse (a quoted
 * phrase longer than a keyword may be) is reported as unsupported rather than passed on.
 */

export interface ReadQuery {
  text: string;
  companySearchParams?: CompanySearchParams;
  prospectSearchParams?: PeopleSearchParams;
  currentCompanies?: CurrentCompany[];
  plan: { kind: PlanKind; steps: Array<{ operationId: string; does: string }> };
  interpretations: Interpretation[];
  notUnderstood: string[];
  unsupported: Unsupported[];
}

const STEPS: Record<PlanKind, ReadQuery['plan']['steps']> = {
  companies: [{ operationId: 'companySearch', does: 'Search companies with companySearchParams.' }],
  people: [{ operationId: 'peopleSearch', does: 'Search people with prospectSearchParams (and currentCompanies).' }],
  companiesThenPeople: [
    { operationId: 'companySearch', does: 'Search companies with companySearchParams.' },
    {
      operationId: 'peopleSearch',
      does: "Search people with prospectSearchParams, currentCompanies set to the first step's output.data.",
    },
    {
      operationId: 'createAudience',
      does: 'Or, in one build: an audience (creationMethod NORMAL) with both filters.',
    },
  ],
};

function checked<T>(
  schema: {
    safeParse: (
      v: unknown,
    ) => { success: true; data: T } | { success: false; error: { issues: Array<{ path: PropertyKey[] }> } };
  },
  params: Record<string, unknown>,
  side: string,
  unsupported: Unsupported[],
): T {
  const candidate = { ...params };
  for (;;) {
    const result = schema.safeParse(candidate);
    if (result.success) return result.data;
    const field = String(result.error.issues[0]?.path[0] ?? '');
    if (!(field in candidate)) throw new Error(`${side}: the parser produced filters its schema refuses`);
    unsupported.push({ words: JSON.stringify(candidate[field]), reason: `not a valid ${side}.${field}` });
    delete candidate[field];
  }
}

export function readSearchQuery(text: string): ReadQuery {
  const parsed = parseSearchQuery(text);
  const unsupported = [...parsed.unsupported];
  const company = parsed.companySearchParams
    ? checked<CompanySearchParams>(companySearchParams, parsed.companySearchParams, 'companySearchParams', unsupported)
    : undefined;
  const people = parsed.prospectSearchParams
    ? checked<PeopleSearchParams>(peopleSearchParams, parsed.prospectSearchParams, 'prospectSearchParams', unsupported)
    : undefined;
  return {
    text,
    ...(company ? { companySearchParams: company } : {}),
    ...(people ? { prospectSearchParams: people } : {}),
    ...(parsed.currentCompanies ? { currentCompanies: parsed.currentCompanies } : {}),
    plan: { kind: parsed.kind, steps: STEPS[parsed.kind] },
    interpretations: parsed.interpretations,
    notUnderstood: parsed.notUnderstood,
    unsupported,
  };
}

export interface ReadQueryCount {
  companies?: CountResult;
  people?: CountResult;
  exactUpTo: number;
}

/** The matches of the plan's first step, counted as companyCount and peopleCount count. */
export async function countFirstStep(
  db: Queryable,
  accountId: number,
  read: ReadQuery,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<ReadQueryCount> {
  if (read.plan.kind === 'people') {
    const people = await countPeople(
      db,
      accountId,
      {
        searchParams: read.prospectSearchParams ?? peopleSearchParams.parse({}),
        currentCompanies: read.currentCompanies,
      },
      options,
    );
    return { people, exactUpTo: exactCountBound };
  }
  const companies = await countCompanies(db, accountId, { searchParams: read.companySearchParams ?? {} }, options);
  return { companies, exactUpTo: exactCountBound };
}
