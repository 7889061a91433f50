import { z } from 'zod';
import { isoTimestamp, resourceId } from './common.js';

/**
 * Webhooks: the event types an endpoint can receive, and the schemas the webhook-endpoint
 * operations share. docs/webhooks.md shows each event's payload.
 */

/** Every event type, with when it is sent; `data` holds what the named status operation answers at that moment. */
export const webhookEvents = {
  'audience.build.completed': 'an audience build finished: the audience is NORMAL (data: getAudienceStatus).',
  'audience.build.failed': 'an audience build failed, nothing charged (data: getAudienceStatus, with failureReason).',
  'enrichment.completed': 'an enrichment run is DONE (data: getEnrichmentStatus, with audienceId).',
  'enrichment.failed': 'an enrichment run FAILED, work not done refunded (data: getEnrichmentStatus, with audienceId).',
  'export.ready': 'an export is READY (data: getExportStatus, with a signed download link).',
  'export.failed': 'an export FAILED (data: getExportStatus, with failureReason).',
  'contacts.batch.completed':
    'a batch contact enrichment is DONE (data: pollBatchContactEnrichment without its pages of results).',
  'contacts.batch.failed': 'a batch contact enrichment stopped FAILED (data: as contacts.batch.completed).',
  'saved_search.new_matches': 'a saved-search run delivered new records (data: getSavedSearchRun, with the name).',
  'saved_search.run.failed': 'a saved-search run FAILED, nothing charged (data: getSavedSearchRun, with the name).',
  'person.job_changed':
    'a watch-list check found a tracked person at another company (data: the change, as listWatchListChanges lists it).',
  'person.title_changed': 'a watch-list check found a new title for a tracked person (data: the change).',
  'company.funding_raised': 'a watch-list check found a new funding round of a tracked company (data: the change).',
  'company.headcount_changed':
    "a watch-list check found a tracked company's headcount moved beyond its list's threshold (data: the change).",
  'company.moved': 'a watch-list check found a tracked company headquartered elsewhere (data: the change).',
  'credits.low':
    'a charge took the balance below the threshold set with setLowBalanceThreshold (data: the balance and the threshold).',
} as const;

export type WebhookEventType = keyof typeof webhookEvents;
export const webhookEventTypes = Object.keys(webhookEvents) as [WebhookEventType, ...WebhookEventType[]];
/** What POST .../test sends; an endpoint receives it whatever its `events`. */
export const webhookTestEventType = 'webhook.test';

export const webhookEndpointId = resourceId('webhookEndpointId').describe(
  'The webhookEndpointId returned by createWebhookEndpoint (listWebhookEndpoints lists them).',
);
export const webhookDeliveryId = resourceId('deliveryId').describe(
  'The deliveryId of one event sent to the endpoint, as listWebhookDeliveries lists it.',
);

export const webhookUrlLimit = 2048;
export const webhookUrl = z
  .string()
  .max(webhookUrlLimit)
  .refine((value) => {
    try {
      return ['https:', 'http:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'expected an https:// URL')
  .describe(
    'Where events are POSTed: an https:// URL on a public address (http:// and private, loopback or link-local addresses are refused; redirects are not followed).',
  );

export const webhookEventList = z
  .array(z.enum(webhookEventTypes))
  .min(1)
  .max(webhookEventTypes.length * 2)
  .describe(`Event types to receive, one or more of: ${webhookEventTypes.join(', ')}.`);

export const webhookDescription = z.string().trim().max(500).describe('A note for people: what receives these events.');

export const webhookEndpointView = z.object({
  webhookEndpointId: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  disabled: z.boolean(),
  disabledReason: z
    .enum(['requested', 'failing'])
    .nullable()
    .describe(
      'requested: disabled by the account; failing: disabled by the service after its deliveries failed for days.',
    ),
  disabledAt: isoTimestamp.nullable(),
  failingSince: isoTimestamp
    .nullable()
    .describe('The first failed attempt since the last success; null while the endpoint answers 2xx.'),
  lastSuccessAt: isoTimestamp.nullable(),
  previousSecretExpiresAt: isoTimestamp
    .nullable()
    .describe('After a rotation: until when the previous secret still signs beside the new one.'),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});

export const webhookSecret = z
  .string()
  .describe('The signing secret (whsec_...), shown only now: keep it to verify the webhook-signature header.');

export const webhookDeliveryView = z.object({
  deliveryId: z.string(),
  webhookId: z.string().describe('The webhook-id header: the same on every attempt of the event.'),
  eventType: z.string(),
  eventTimestamp: isoTimestamp,
  status: z
    .enum(['pending', 'delivered', 'failed'])
    .describe('pending: attempts continue; delivered: an attempt was answered 2xx; failed: every attempt failed.'),
  nextAttemptAt: isoTimestamp.nullable().describe('While pending: when the next attempt is made.'),
  deliveredAt: isoTimestamp.nullable(),
  failureReason: z.string().nullable(),
  attempts: z
    .array(
      z.object({
        attemptedAt: isoTimestamp,
        statusCode: z.number().int().nullable().describe("The endpoint's HTTP status; null when there was no answer."),
        error: z.string().nullable().describe('Why there was no answer (timeout, refused address, connection error).'),
        durationMs: z.number().int(),
        responseExcerpt: z
          .string()
          .nullable()
          .describe("The first characters of the endpoint's answer, with addresses and tokens redacted."),
      }),
    )
    .describe('Its attempts, newest first (the latest 20).'),
});
