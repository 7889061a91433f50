-- Indexes that fit the search filters. Large seeds (src/seed/load.ts) drop these, bulk-load
-- with COPY, and re-create them from this file, so this file is the one definition of them.

CREATE INDEX companies_name_trgm ON companies USING gin (preferred_name gin_trgm_ops);
CREATE INDEX companies_description_tsv ON companies USING gin (description_tsv);
CREATE INDEX companies_domains ON companies USING gin (domains);
CREATE INDEX companies_tlds ON companies USING gin (tlds);
CREATE INDEX companies_industries ON companies USING gin (standard_industries);
CREATE INDEX companies_special_flags ON companies USING gin (special_flags);
CREATE INDEX companies_slug ON companies (network_primary_slug);
CREATE INDEX companies_org_id ON companies (network_org_id);
CREATE INDEX companies_country ON companies (country_code, id);
CREATE INDEX companies_state ON companies (state_name, id);
CREATE INDEX companies_stage ON companies (stage, id);
CREATE INDEX companies_employees ON companies (employee_count_min, employee_count_max);
CREATE INDEX companies_total_funding ON companies (total_funding_usd);
CREATE INDEX companies_last_funding ON companies (last_funding_usd);
CREATE INDEX companies_last_funded_on ON companies (last_funded_on);
CREATE INDEX companies_founded_on ON companies (founded_on);
CREATE INDEX companies_name_lower ON companies (lower(preferred_name));

CREATE INDEX people_title_trgm ON people USING gin (title gin_trgm_ops);
CREATE INDEX people_company ON people (company_id, id);
CREATE INDEX people_country3 ON people (country3, id);
CREATE INDEX people_years ON people (years_experience);
CREATE INDEX people_tags ON people USING gin (tags);
CREATE INDEX people_degree_types ON people USING gin (degree_types);
CREATE INDEX people_schools ON people USING gin (schools);
CREATE INDEX people_network_slug ON people (network_slug);
CREATE INDEX people_network_user_id ON people (network_user_id);
