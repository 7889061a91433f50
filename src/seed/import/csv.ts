// CSV: dotted column names for nested fields, ";"-separated lists, JSON for lists of objects.

export type CsvKind = 'string' | 'number' | 'list' | 'json';

export const COMPANY_CSV_COLUMNS: Readonly<Record<string, CsvKind>> = {
  id: 'number',
  preferred_name: 'string',
  description: 'string',
  domains: 'list',
  network_primary_slug: 'string',
  network_org_id: 'string',
  standard_industries: 'list',
  'employee_count_consensus.min': 'number',
  'employee_count_consensus.max': 'number',
  'location_consensus.city': 'string',
  'location_consensus.country_code': 'string',
  'location_consensus.state_name': 'string',
  'total_funding_consensus.usd': 'number',
  last_funding_usd: 'number',
  last_funded_on: 'string',
  founded_on: 'string',
  stage: 'string',
  special_flags: 'list',
};

export const PERSON_CSV_COLUMNS: Readonly<Record<string, CsvKind>> = {
  id: 'number',
  first_name: 'string',
  last_name: 'string',
  title: 'string',
  headline: 'string',
  'location.city': 'string',
  'location.country_code': 'string',
  'current_company.name': 'string',
  'current_company.network_slug': 'string',
  'current_company.domain': 'string',
  languages: 'json',
  years_experience: 'number',
  tags: 'list',
  education: 'json',
  work_experiences: 'json',
  network_slug: 'string',
  network_user_id: 'string',
  'contacts.work_emails': 'list',
  'contacts.personal_emails': 'list',
  'contacts.phones': 'list',
};

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
    else {
      const created: Record<string, unknown> = {};
      node[part] = created;
      node = created;
    }
  }
  node[parts[parts.length - 1] as string] = value;
}

/** Turns CSV cells into the JSON shape the schema expects; empty cells are left out. */
export function csvToObject(
  header: readonly string[],
  kinds: readonly CsvKind[],
  fields: readonly string[],
): { value: Record<string, unknown>; problems: string[] } {
  const value: Record<string, unknown> = {};
  const problems: string[] = [];
  header.forEach((column, i) => {
    const raw = fields[i] ?? '';
    if (raw.trim() === '') return;
    const kind = kinds[i] as CsvKind;
    let converted: unknown = raw;
    if (kind === 'number') converted = /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw;
    else if (kind === 'list')
      converted = raw
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (kind === 'json') {
      try {
        converted = JSON.parse(raw);
      } catch {
        problems.push(`${column}: invalid JSON (lists of objects are JSON in CSV cells)`);
        return;
      }
    }
    setPath(value, column, converted);
  });
  return { value, problems };
}
