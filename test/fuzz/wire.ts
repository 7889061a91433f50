import { parse as parseQuery } from 'node:querystring';
import fc from 'fast-check';
import { Pool } from 'undici';
import { pathParameters, type AnyOperation } from '../../operations/define.js';
import { inputJsonSchema } from '../../operations/json-schema.js';
import {
  applyMutation,
  fieldName,
  isRecord,
  mutationsAt,
  sitesOf,
  valid,
  type Hints,
  type JsonSchema,
  type Mutation,
} from './schema-arbitraries.js';

/**
 * One REST call as the fuzzer makes it: an operation, its fields (path parameters included, as
 * the registry's schema names them), where the key travels, and how that becomes an HTTP request,
 * the way a client would send it (path parameters percent-encoded into the path, GET fields in the
 * query string, other fields in a JSON body).
 */
export interface RestCase {
  operation: AnyOperation;
  input: Record<string, unknown>;
  auth: 'header' | 'field' | 'both';
}

export interface InvalidCase extends RestCase {
  mutation: Mutation;
  /** The field a correct refusal names. */
  field: string;
}

export interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Text is sent as UTF-8; bytes as they are. */
  body?: string | Buffer;
}

export interface WireAnswer {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

const bodyMethods = new Set(['POST', 'PATCH', 'PUT']);
export const hasBody = (operation: AnyOperation): boolean => bodyMethods.has(operation.method);

const schemas = new Map<string, JsonSchema>();
export function schemaOf(operation: AnyOperation): JsonSchema {
  let schema = schemas.get(operation.operationId);
  if (!schema) schemas.set(operation.operationId, (schema = inputJsonSchema(operation) as JsonSchema));
  return schema;
}

export function encode(call: RestCase, apiKey: string): WireRequest {
  const { operation, input } = call;
  const inPath = new Set(pathParameters(operation.path));
  const path = operation.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    encodeURIComponent(String(input[name] ?? '')),
  );
  const headers: Record<string, string> = {};
  if (call.auth !== 'field') headers['x-api-key'] = apiKey;
  const withKey = call.auth !== 'header';
  const fields = Object.entries(input).filter(([name]) => !inPath.has(name));
  if (hasBody(operation)) {
    headers['content-type'] = 'application/json';
    const body: Record<string, unknown> = {};
    // defineProperty: a field named __proto__ must travel as a field, as JSON.parse will read it.
    for (const [name, value] of fields)
      Object.defineProperty(body, name, { value, enumerable: true, configurable: true, writable: true });
    if (withKey) body.apiKey = apiKey;
    return { method: operation.method, path, headers, body: JSON.stringify(body) };
  }
  const query = new URLSearchParams();
  for (const [name, value] of fields) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value])
      query.append(name, typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item));
  }
  if (withKey) query.append('apiKey', apiKey);
  const text = query.toString();
  return { method: operation.method, path: text ? `${path}?${text}` : path, headers };
}

/** What the router hands the operation's schema for this request: the decoded body or query without apiKey, plus the path parameters. */
export function serverView(call: RestCase, wire: WireRequest): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const source = hasBody(call.operation)
    ? (JSON.parse(String(wire.body ?? '{}')) as Record<string, unknown>)
    : (parseQuery(wire.path.includes('?') ? wire.path.slice(wire.path.indexOf('?') + 1) : '') as Record<
        string,
        unknown
      >);
  for (const [name, value] of Object.entries(source)) {
    if (name !== 'apiKey')
      Object.defineProperty(fields, name, { value, enumerable: true, configurable: true, writable: true });
  }
  for (const name of pathParameters(call.operation.path)) fields[name] = String(call.input[name] ?? '');
  return fields;
}

export const authArbitrary = fc.constantFrom<RestCase['auth']>('header', 'field', 'both');

/** Inputs that the registry's schema accepts, as the server will read them. */
export function validCase(operation: AnyOperation, hints: Hints, apiKey: string): fc.Arbitrary<RestCase> {
  const textOnly = !hasBody(operation);
  return fc
    .tuple(valid(schemaOf(operation), { hints, textOnly }), authArbitrary)
    .map(([input, auth]) => ({ operation, input: input as Record<string, unknown>, auth }))
    .filter((call) => operation.input.safeParse(serverView(call, encode(call, apiKey))).success)
    .map((call) => printable(call, () => describe(call, encode(call, '<key>'))));
}

/**
 * A valid input broken in one place. Path parameters travel as text in the path, and GET fields
 * as text in the query string, so only what text can break applies there.
 */
export function invalidCase(operation: AnyOperation, hints: Hints, apiKey: string): fc.Arbitrary<InvalidCase> {
  const inPath = new Set(pathParameters(operation.path));
  const textOnly = !hasBody(operation);
  const schema = schemaOf(operation);
  return fc
    .tuple(validCase(operation, hints, apiKey), fc.nat())
    .chain(([base, pick]) => {
      const choices = sitesOf(schema, base.input).flatMap((site) => {
        const pathParameter = site.path.length > 0 && inPath.has(String(site.path[0]));
        return mutationsAt(site, { textOnly: textOnly || pathParameter, reservedKeys: ['apiKey', ...inPath] }).map(
          (mutation) => ({ mutation, pathParameter }),
        );
      });
      const chosen = choices[pick % choices.length];
      if (!chosen) return fc.constant(null);
      return chosen.mutation.map((mutation) => {
        // A path parameter is text in the path: it can be too long, off its pattern or hold a NUL, not of another type.
        if (chosen.pathParameter && !['too-long', 'pattern', 'nul'].includes(mutation.kind)) return null;
        // Without it the request goes to another path (or none): the router, not the operation, answers.
        if (mutation.kind === 'missing-required' && inPath.has(String(mutation.path[0]))) return null;
        const input = applyMutation(base.input, mutation) as Record<string, unknown>;
        return { ...base, input, mutation, field: fieldName(mutation.path) };
      });
    })
    .filter((call): call is InvalidCase => call !== null)
    .map((call) =>
      printable(call, () => `${call.mutation.kind} at ${call.field}: ${describe(call, encode(call, '<key>'))}`),
    )
    .filter((call) => {
      // Broken for real: the registry's schema refuses it, or it holds a NUL (which the schema lets through and the service must not).
      if (call.mutation.kind === 'nul') return true;
      const view = serverView(call, encode(call, apiKey));
      return !operation.input.safeParse(view).success;
    });
}

/** How fast-check prints a case in its failure report: a summary (a 3,000-deep value would overflow its printer). */
export function printable<T extends object>(value: T, summary: () => string): T {
  Object.defineProperty(value, fc.toStringMethod, { value: summary, enumerable: false });
  return value;
}

/** Sends requests over one keep-alive pool, raw: the path goes out as written (no dot-segment folding). */
export class Wire {
  private readonly pool: Pool;
  constructor(url: string) {
    this.pool = new Pool(url, {
      connections: 4,
      keepAliveTimeout: 30_000,
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
  }

  async send(request: WireRequest): Promise<WireAnswer> {
    const response = await this.pool.request({
      method: request.method as 'GET',
      path: request.path,
      headers: request.headers,
      body: request.body,
    });
    const text = await response.body.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text for the failure message
    }
    return { status: response.statusCode, body, headers: response.headers };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Issue fields of a refusal, or [] when it has none. */
export function issueFields(answer: WireAnswer): string[] {
  const issues = (answer.body as { error?: { details?: { issues?: Array<{ field?: unknown }> } } })?.error?.details
    ?.issues;
  return Array.isArray(issues) ? issues.map((i) => String(i.field)) : [];
}

/**
 * Whether a refusal names the field: that field itself, or (for a value nested too deep, refused
 * where the nesting passes the limit) a place inside it.
 */
export function namesField(answer: WireAnswer, field: string, inside = false): boolean {
  return fieldsInclude(issueFields(answer), field, inside);
}

/** The same judgement over the named fields alone, for answers that reach us as an MCP tool result. */
export function fieldsInclude(named: readonly string[], field: string, inside = false): boolean {
  return named.some(
    (name) =>
      name === field ||
      (inside && name.startsWith(`${field}.`)) ||
      // An entry of a list that takes a bare string or an object (watch-list items): the entry at fault is named.
      (/\.\d+$/.test(name) && field.startsWith(`${name}.`)),
  );
}

/** The top-level fields a call carries, for refusals of valid input that must name one of them. */
export function presentFields(call: RestCase): Set<string> {
  return new Set(
    Object.entries(call.input)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k),
  );
}

export function describe(call: RestCase, wire: WireRequest, answer?: WireAnswer): string {
  const text = wire.body === undefined ? undefined : String(wire.body);
  const body = text && text.length > 600 ? `${text.slice(0, 600)}... (${text.length} chars)` : text;
  const path = wire.path.length > 600 ? `${wire.path.slice(0, 600)}...` : wire.path;
  return [
    `${call.operation.operationId}: ${wire.method} ${path}`,
    body ? `body ${body}` : '',
    answer ? `answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 800)}` : '',
  ]
    .filter(Boolean)
    .join('\n  ');
}

export { isRecord };
