import { defineTable } from './define-table.js';

/** A row of `companies` as a load writes it (the generated seed, imports). */
export interface CompanyRow {
  id: number;
  preferred_name: string;
  description: string;
  domains: string[];
  /** The TLDs of `domains`, with their leading dot (".co.uk"). */
  tlds: string[];
  network_primary_slug: string | null;
  network_org_id: number | null;
  standard_industries: string[];
  employee_count_min: number | null;
  employee_count_max: number | null;
  city: string | null;
  state_name: string | null;
  /** ISO 3166-1 alpha-2. */
  country_code: string | null;
  /** "City, State, Country" as one text. */
  location_text: string | null;
  total_funding_usd: number | null;
  last_funding_usd: number | null;
  /** YYYY-MM-DD. */
  last_funded_on: string | null;
  /** YYYY-MM-DD. */
  founded_on: string | null;
  stage: string | null;
  special_flags: string[];
}

/** Columns of `companies` that no load writes. */
export interface CompanyMaintainedColumns {
  /** Generated from the description, for the keywords filter. */
  description_tsv: string;
  updated_at: Date;
  /** When live enrichment last refreshed the record; null when it never did. */
  live_fetched_at: Date | null;
}

export const companiesTable = defineTable<CompanyRow, CompanyMaintainedColumns>(
  'companies',
  {
    id: 'bigint',
    preferred_name: 'text',
    description: 'text',
    domains: 'text[]',
    tlds: 'text[]',
    network_primary_slug: 'text',
    network_org_id: 'bigint',
    standard_industries: 'text[]',
    employee_count_min: 'integer',
    employee_count_max: 'integer',
    city: 'text',
    state_name: 'text',
    country_code: 'char',
    location_text: 'text',
    total_funding_usd: 'bigint',
    last_funding_usd: 'bigint',
    last_funded_on: 'date',
    founded_on: 'date',
    stage: 'text',
    special_flags: 'text[]',
  },
  { description_tsv: 'tsvector', updated_at: 'timestamptz', live_fetched_at: 'timestamptz' },
);
