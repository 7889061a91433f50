import { z } from 'zod';
import { defineOperation, free } from '../../define.js';

export const listTimeZones = defineOperation({
  operationId: 'listTimeZones',
  title: 'List time zones',
  summary: 'List the IANA time zones (Europe/Paris, America/New_York) with their current offset from UTC.',
  description:
    'Reference data: every IANA time zone name, its area (the part before the slash) and its offset from UTC at the time of the call (asOf), which moves with daylight saving time. ' +
    "Use it to plan outreach in the prospect's local hours. Free.",
  category: 'account',
  keywords: [
    'time zones',
    'timezone',
    'timezones',
    'tz',
    'iana',
    'utc',
    'offset',
    'local time',
    'hours',
    'enum',
    'reference',
    'time zone names',
    'utc offsets',
    'call planning',
  ],
  method: 'GET',
  path: '/v1/enums/time-zones',
  input: z.strictObject({}),
  output: z.object({
    asOf: z.string(),
    timeZones: z.array(
      z.object({
        name: z.string(),
        area: z.string(),
        utcOffset: z.string().describe('Like +05:30 or -04:00, at asOf.'),
      }),
    ),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {},
  workflow: { before: [], after: [] },
});
