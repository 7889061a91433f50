import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { cursor, isoTimestamp } from '../../schemas/common.js';

// Year 0000 fits the pattern but not PostgreSQL's calendar (it has no year zero): refused here, by the field.
const timestamp = z.iso
  .datetime({ offset: true, message: 'expected an ISO 8601 time such as 2026-11-30T12:00:00Z' })
  .max(40)
  .refine((time) => !time.startsWith('0000-'), 'expected a time from the year 0001 on (there is no year 0000)');

export const listRequestLog = defineOperation({
  operationId: 'listRequestLog',
  title: 'List the request log',
  summary: "The account's recent calls, newest first: operation, status, credits, the key or assistant, request id.",
  description:
    'Pages through what the account ran in the last 30 days on the REST API and every MCP surface, newest first: the time, the operation, the HTTP status ' +
    '(and error code), the credits charged, the API key (its name and prefix, never the key) or the connected assistant (OAuth client) that ran it, and the request id ' +
    '(the x-request-id header of the answer, and the requestId of every error). Filter by operationId, status (404) or status class (4xx), keyId, requestId, and a time range (from included, to excluded). ' +
    'Pass nextCursor back as cursor, with the same filters, for the next page. For totals per day see getUsage. Free.',
  category: 'account',
  keywords: [
    'request log',
    'requests',
    'logs',
    'log',
    'api calls',
    'calls',
    'history',
    'audit',
    'activity',
    'recent',
    'errors',
    'failed',
    'status',
    'request id',
    'trace',
    'debug',
    'what did my key do',
    'assistant',
    'call log',
    'failed calls',
    'status codes',
    'rate limited',
    'api traffic',
  ],
  method: 'GET',
  path: '/v1/request-log',
  input: z.strictObject({
    operationId: z.string().max(100).optional().describe('Only calls of this operation (peopleSearch).'),
    status: z
      .string()
      .max(3)
      .regex(/^[1-5]([0-9][0-9]|xx)$/, 'expected an HTTP status (404) or a class of them (4xx)')
      .optional()
      .describe('Only calls answered with this status (429) or a status of this class (2xx, 4xx, 5xx).'),
    keyId: z
      .string()
      .max(18)
      .regex(/^[1-9][0-9]{0,17}$/, 'expected the keyId of an API key (a decimal string)')
      .optional()
      .describe("Only calls made with this API key (the key's keyId in this log or in getUsage)."),
    requestId: z.string().min(1).max(100).optional().describe('Only the call with this request id.'),
    from: timestamp.optional().describe('Calls at or after this time (ISO 8601).'),
    to: timestamp.optional().describe('Calls before this time (ISO 8601).'),
    pageSize: z.coerce.number().int().min(1).max(200).default(50).describe('Calls per page: default 50, at most 200.'),
    cursor,
  }),
  output: z.object({
    data: z.array(
      z.object({
        at: isoTimestamp,
        requestId: z.string().describe('The x-request-id of the answer.'),
        operationId: z.string(),
        status: z.number().int().describe('The HTTP status of the answer (on MCP, the status it stands for).'),
        errorCode: z.string().nullable(),
        credits: z.number().int().nonnegative().describe('Credits charged by the call.'),
        surface: z.enum(['rest', 'mcp', 'mcp/v2', 'mcp/v3']),
        durationMs: z.number().int().nullable(),
        key: z
          .object({ keyId: z.string(), name: z.string().nullable(), prefix: z.string().nullable() })
          .nullable()
          .describe('The API key that made the call; null when an assistant signed in with OAuth.'),
        assistant: z
          .object({ clientId: z.string(), name: z.string().nullable() })
          .nullable()
          .describe('The connected assistant (OAuth client) that made the call; null for a key.'),
      }),
    ),
    nextCursor: z.string().nullable(),
  }),
  credits: free(),
  rateLimitClass: 'status',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { status: '4xx', pageSize: 50 },
  workflow: { before: [], after: ['getUsage'] },
});
