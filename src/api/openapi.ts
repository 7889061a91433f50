import { chargeMethodOf, pathParameters, type AnyOperation } from '../../operations/define.js';
import { operations } from '../../operations/index.js';
import { chargeInfoJsonSchema, inputJsonSchema, outputJsonSchema } from '../../operations/json-schema.js';
import { errorStatus } from '../errors.js';

const errorBody = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        code: { type: 'string', enum: Object.keys(errorStatus) },
        message: { type: 'string' },
        details: { type: 'object' },
        requestId: { type: 'string' },
      },
      required: ['code', 'message'],
    },
  },
  required: ['error'],
};

/** The OpenAPI 3.1 document of the REST API, derived from the registry. */
/**
 * The document as served: its description and those of the search operations end with this
 * instance's catalog size (read from its database, src/core/catalog-size.ts), which the document
 * built at start cannot know.
 */
export function withCatalogSize(document: Record<string, unknown>, sentence: string): Record<string, unknown> {
  const info = document.info as { description: string };
  const searching = new Set(operations.filter((o) => o.category === 'search').map((o) => o.operationId));
  const paths = Object.fromEntries(
    Object.entries(
      document.paths as Record<string, Record<string, { operationId?: string; description?: string }>>,
    ).map(([path, methods]) => [
      path,
      Object.fromEntries(
        Object.entries(methods).map(([method, spec]) => [
          method,
          spec.operationId && searching.has(spec.operationId.replace(/Alias$/, ''))
            ? { ...spec, description: `${spec.description ?? ''} ${sentence}` }
            : spec,
        ]),
      ),
    ]),
  );
  return { ...document, info: { ...info, description: `${info.description} ${sentence}` }, paths };
}

export function buildOpenApiDocument(publicUrl: string, rateLimits: Record<string, number>): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    for (const [index, path] of [operation.path, ...(operation.aliasPaths ?? [])].entries()) {
      paths[path] ??= {};
      (paths[path] as Record<string, unknown>)[operation.method.toLowerCase()] = operationObject(
        operation,
        index > 0,
        rateLimits,
      );
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Prospecting Data Service',
      version: '1.0.0',
      description:
        'Company search, people search, live enrichment, contact enrichment and audiences, metered in credits. ' +
        'Authenticate with the x-api-key header (preferred: query strings end up in proxy logs), or with the field apiKey: ' +
        'in the JSON body for POST, PATCH and PUT, in the query string for GET and DELETE. Both at once must be the same key (otherwise 400).',
    },
    servers: [{ url: publicUrl }],
    paths,
    security: [{ apiKeyHeader: [] }],
    components: {
      schemas: { Error: errorBody, ChargeInfo: chargeInfoJsonSchema },
      securitySchemes: {
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'The preferred way, for every operation.',
        },
        apiKeyQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'apiKey',
          description: 'GET and DELETE, as the spec has it: prefer the header, as query strings are logged by proxies.',
        },
      },
    },
  };
}

function operationObject(
  operation: AnyOperation,
  isAlias: boolean,
  rateLimits: Record<string, number>,
): Record<string, unknown> {
  const input = inputJsonSchema(operation);
  const properties = (input.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((input.required ?? []) as string[]);
  const inPath = new Set(pathParameters(operation.path));
  const parameters: Record<string, unknown>[] = [...inPath].map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: properties[name] ?? { type: 'string' },
  }));
  const hasBody = ['POST', 'PATCH', 'PUT'].includes(operation.method);
  if (!hasBody) {
    parameters.push({
      name: 'apiKey',
      in: 'query',
      required: false,
      schema: { type: 'string' },
      description: 'Your API key, when it is not in the x-api-key header (preferred).',
    });
    for (const [name, schema] of Object.entries(properties)) {
      if (!inPath.has(name)) parameters.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  const idempotent = operation.method === 'POST';
  if (idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      description:
        'Makes a retry safe: a repeat with the same key and the same body within 24 hours answers the first answer again ' +
        '(with Idempotent-Replayed: true) and charges nothing; the same key with another body is 400 idempotency_mismatch; ' +
        'a repeat while the first still runs waits up to 250 ms for its answer, then is 409 idempotency_in_flight. Keys are per account.',
    });
  }
  const bodyProperties = Object.fromEntries(Object.entries(properties).filter(([name]) => !inPath.has(name)));
  const errors = [
    '400',
    '401',
    '404',
    ...(idempotent ? ['409'] : []),
    '429',
    '503',
    ...(operation.credits.charged === 'free' ? [] : ['402']),
  ];
  return {
    operationId: isAlias ? `${operation.operationId}Alias` : operation.operationId,
    summary: operation.title,
    description: operation.description,
    tags: [operation.category],
    // The body field apiKey (POST, PATCH, PUT) is the spec's other way; OpenAPI cannot name a body field as a scheme.
    security: hasBody ? [{ apiKeyHeader: [] }] : [{ apiKeyHeader: [] }, { apiKeyQuery: [] }],
    ...(isAlias ? { deprecated: false, 'x-alias-of': operation.path } : {}),
    parameters,
    ...(hasBody
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  ...input,
                  properties: {
                    apiKey: {
                      type: 'string',
                      description: 'Your API key, when it is not in the x-api-key header (preferred).',
                    },
                    ...bodyProperties,
                  },
                  required: [...required].filter((name) => !inPath.has(name)),
                },
                example: { apiKey: '<API_KEY>', ...(operation.example as object) },
              },
            },
          },
        }
      : {}),
    responses: {
      '200': {
        description: 'Success.',
        ...(idempotent
          ? {
              headers: {
                'Idempotent-Replayed': {
                  description:
                    'true when this is the stored answer to an earlier request with the same Idempotency-Key.',
                  schema: { type: 'string', enum: ['true'] },
                },
              },
            }
          : {}),
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                output: outputJsonSchema(operation),
                chargeInfo: { $ref: '#/components/schemas/ChargeInfo' },
              },
              required: ['output', 'chargeInfo'],
            },
          },
        },
      },
      ...Object.fromEntries(
        errors.map((status) => [
          status,
          {
            description: errorDescriptions[status],
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
    },
    'x-credit-cost': {
      unit: operation.credits.unit,
      charged: operation.credits.charged,
      chargeInfoMethod: chargeMethodOf(operation.credits.charged),
      rule: operation.credits.rule,
      example: operation.credits.example,
    },
    'x-rate-limit': { class: operation.rateLimitClass, requestsPerMinute: rateLimits[operation.rateLimitClass] },
    ...(operation.pollIntervalSeconds ? { 'x-poll-interval-seconds': operation.pollIntervalSeconds } : {}),
    'x-confirmation': operation.confirmation,
  };
}

const errorDescriptions: Record<string, string> = {
  '400': 'Invalid request (details.issues names each field) or invalid state.',
  '401': 'Missing or invalid API key.',
  '402': 'Insufficient credits; nothing was charged.',
  '404': 'Not found, or not accessible with this key.',
  '409': 'A request with the same Idempotency-Key is still running (idempotency_in_flight); see Retry-After.',
  '429':
    'Rate limit, per-account concurrency, daily cap or quota exceeded; see Retry-After (and RateLimit, RateLimit-Policy).',
  '503':
    'The query ran past its time limit, or the database is busy or unreachable; nothing was charged; see Retry-After.',
};
