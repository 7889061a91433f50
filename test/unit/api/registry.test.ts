import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pathParameters } from '../../../operations/define.js';
import { findOperation, operations } from '../../../operations/index.js';
import { runs } from '../../../operations/runs.js';
import { withGeneratedBlock } from '../../../src/http/llms-txt.js';
import { buildOpenApiDocument } from '../../../src/api/openapi.js';

const specOperationIds = [
  'companySearch',
  'peopleSearch',
  'createAudience',
  'updateAudienceSearchParams',
  'buildAudience',
  'getAudienceStatus',
  'estimateEnrichmentCost',
  'triggerEnrichment',
  'getEnrichmentStatus',
  'exportCompanies',
  'exportProspects',
  'startBatchContactEnrichment',
  'pollBatchContactEnrichment',
];
const foundationOperations: Array<[string, string, string]> = [
  ['liveEnrichCompany', 'POST', '/v1/network-live-fetch/company/single'],
  ['liveEnrichPerson', 'POST', '/v1/network-live-fetch/profile/single'],
  ['revealContactSync', 'POST', '/v1/individual-reveal/sync'],
  ['revealContactSingle', 'POST', '/v1/contact-details/single'],
  ['getCreditBalance', 'GET', '/v1/credits'],
  ['listRegions', 'GET', '/v1/enums/regions'],
  ['listIndustries', 'GET', '/v1/enums/industries'],
  ['createExclusionList', 'POST', '/v1/exclusion-lists'],
];

describe('operation registry', () => {
  it('holds the spec operationIds, spelled exactly, and the foundation operations on their paths', () => {
    for (const id of specOperationIds) expect(findOperation(id), id).toBeDefined();
    for (const [id, method, path] of foundationOperations) {
      expect(findOperation(id)?.method, id).toBe(method);
      expect(findOperation(id)?.path, id).toBe(path);
    }
    expect(findOperation('getCreditBalance')?.aliasPaths).toContain('/v1/get-org-credits');
    expect(findOperation('listRegions')?.aliasPaths).toContain('/v1/regions');
    expect(findOperation('listIndustries')?.aliasPaths).toContain('/v1/industries');
    expect(findOperation('startBatchContactEnrichment')?.path).toBe('/v1/contact-enrichment/batch');
    expect(findOperation('pollBatchContactEnrichment')?.path).toBe('/v1/contact-enrichment/batch/{taskId}');
  });

  it('has unique operationIds and unique method + path pairs', () => {
    const ids = operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = operations.flatMap((o) => [o.path, ...(o.aliasPaths ?? [])].map((p) => `${o.method} ${p}`));
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('gives every operation exactly one run and no run to an unknown operation', () => {
    const handled = runs.map((run) => run.operationId).sort();
    expect(handled).toEqual(operations.map((o) => o.operationId).sort());
  });

  it('gives every operation credit metadata, a rate-limit class, docs and a poll interval for status operations', () => {
    for (const operation of operations) {
      expect(operation.credits.unit, operation.operationId).toBeTruthy();
      expect(operation.credits.rule.length, operation.operationId).toBeGreaterThan(3);
      expect(['search', 'standard', 'status', 'heavy']).toContain(operation.rateLimitClass);
      expect(operation.description.length, operation.operationId).toBeGreaterThan(60);
      expect(operation.keywords.length, operation.operationId).toBeGreaterThan(4);
      for (const neighbour of [...operation.workflow.before, ...operation.workflow.after]) {
        expect(findOperation(neighbour), `${operation.operationId} → ${neighbour}`).toBeDefined();
      }
      if (operation.credits.charged === 'free') expect(operation.credits.worstCase(operation.example)).toBe(0);
    }
    for (const id of ['getAudienceStatus', 'getEnrichmentStatus', 'pollBatchContactEnrichment']) {
      expect(findOperation(id)?.pollIntervalSeconds, id).toBe(30);
    }
    expect(findOperation('triggerEnrichment')?.confirmation).toBe('always');
  });

  it('derives a JSON Schema for every input and output, with path parameters as required fields', () => {
    for (const operation of operations) {
      const input = z.toJSONSchema(operation.input, { io: 'input' }) as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      for (const name of pathParameters(operation.path)) expect(input.required, operation.operationId).toContain(name);
      expect(() => z.toJSONSchema(operation.output)).not.toThrow();
    }
  });

  it('prices searches at one credit per record, worst case the page size', () => {
    const companySearch = findOperation('companySearch');
    expect(companySearch?.credits.worstCase({ searchParams: {}, pageSize: 40 })).toBe(40);
    expect(
      findOperation('revealContactSync')?.credits.worstCase({
        profileUrl: 'x',
        enrichmentType: { getWorkEmails: true, getPersonalEmails: true, getPhoneNumbers: true },
      }),
    ).toBe(7);
  });
});

describe('derived documents', () => {
  it('generates OpenAPI 3.1 with the credit cost and rate limit of every operation', () => {
    const document = buildOpenApiDocument('http://localhost:3000', {
      search: 120,
      standard: 300,
      status: 120,
      heavy: 30,
    }) as {
      openapi: string;
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(document.openapi).toBe('3.1.0');
    for (const operation of operations) {
      const entry = document.paths[operation.path]?.[operation.method.toLowerCase()];
      expect(entry?.operationId, operation.operationId).toBe(operation.operationId);
      expect(entry?.['x-credit-cost'], operation.operationId).toMatchObject({
        unit: operation.credits.unit,
        rule: operation.credits.rule,
      });
      expect(entry?.['x-rate-limit'], operation.operationId).toMatchObject({ class: operation.rateLimitClass });
    }
    const search = document.paths['/v1/company-search']?.post as {
      requestBody: { content: Record<string, { schema: { required: string[]; properties: Record<string, unknown> } }> };
    };
    // The key may come in the x-api-key header instead, so the body field is optional.
    expect(search.requestBody.content['application/json']?.schema.required).toEqual(
      expect.arrayContaining(['searchParams']),
    );
    expect(search.requestBody.content['application/json']?.schema.properties).toHaveProperty('apiKey');
  });

  it('keeps the committed llms.txt in step with the registry (run `npm run generate` after changing operations)', async () => {
    const committed = await readFile(new URL('../../../llms.txt', import.meta.url), 'utf8');
    expect(committed).toBe(withGeneratedBlock(committed));
    for (const operation of operations)
      expect(committed).toContain(`- ${operation.operationId}: ${operation.method} ${operation.path}`);
  });
});
