import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../operations/index.js';
import { inputJsonSchema } from '../../operations/json-schema.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * A free request must not be able to hold the database: every string and every list a caller can
 * send is bounded in the registry, so the bound reaches REST validation, OpenAPI and the MCP
 * schemas alike, and an oversized value is refused before any query runs.
 */

type JsonSchema = Record<string, unknown>;

function unboundedNodes(schema: JsonSchema, at: string, found: string[]): void {
  const type = schema.type;
  const types = Array.isArray(type) ? type : [type];
  const isFixed = 'enum' in schema || 'const' in schema;
  if (types.includes('string') && !isFixed && typeof schema.maxLength !== 'number')
    found.push(`${at} (string without maxLength)`);
  if (types.includes('array') && typeof schema.maxItems !== 'number') found.push(`${at} (array without maxItems)`);
  if (types.includes('object') && !schema.properties && schema.additionalProperties !== false) {
    found.push(`${at} (object with free-form keys)`);
  }
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>))
    unboundedNodes(child, `${at}.${name}`, found);
  if (schema.items && typeof schema.items === 'object') unboundedNodes(schema.items as JsonSchema, `${at}[]`, found);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const [i, child] of ((schema[key] ?? []) as JsonSchema[]).entries())
      unboundedNodes(child, `${at}<${key}${i}>`, found);
  }
}

describe('bounds on every input', () => {
  it('gives every string a maxLength and every list a maxItems, in every operation', () => {
    const found: string[] = [];
    for (const operation of operations) unboundedNodes(inputJsonSchema(operation), operation.operationId, found);
    expect(found).toEqual([]);
  });
});

describe('oversized values over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('refuses a 100,000-character school name with a 400 naming the field and its limit, and charges nothing', async () => {
    const before = (await app.request('GET', `/v1/credits?apiKey=${app.apiKey}`)).body.output.balance;
    const response = await app.request('POST', '/v1/people-search', {
      apiKey: app.apiKey,
      searchParams: { education: { schools: ['x'.repeat(100_000)] } },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_request');
    const issue = response.body.error.details.issues[0];
    expect(issue.field).toBe('searchParams.education.schools.0');
    expect(issue.message).toMatch(/at most \d+ characters/);
    const after = (await app.request('GET', `/v1/credits?apiKey=${app.apiKey}`)).body.output.balance;
    expect(after).toBe(before);
  });

  it('refuses too many values in a list with a 400 naming the list and its limit', async () => {
    const response = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: { headquartersLocation: Array.from({ length: 5000 }, (_, i) => `City ${i}`) },
    });
    expect(response.status).toBe(400);
    const issue = response.body.error.details.issues[0];
    expect(issue.field).toBe('searchParams.headquartersLocation');
    expect(issue.message).toMatch(/at most \d+ items/);
  });

  it('refuses an oversized cursor and an oversized live-fetch identifier', async () => {
    const cursor = await app.request('POST', '/v1/company-search', {
      apiKey: app.apiKey,
      searchParams: {},
      cursor: 'c'.repeat(50_000),
    });
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.details.issues[0].field).toBe('cursor');
    const live = await app.request('POST', '/v1/network-live-fetch/profile/single', {
      apiKey: app.apiKey,
      identifier: 'a'.repeat(50_000),
    });
    expect(live.status).toBe(400);
    expect(live.body.error.details.issues[0].field).toBe('identifier');
  });

  it('publishes the bounds in OpenAPI', async () => {
    const document = (await app.request('GET', '/openapi.json')).body;
    const body = document.paths['/v1/people-search'].post.requestBody.content['application/json'].schema;
    const schools = body.properties.searchParams.properties.education.properties.schools;
    expect(schools.maxItems).toBeGreaterThan(0);
    expect(schools.items.maxLength).toBeGreaterThan(0);
  });
});
