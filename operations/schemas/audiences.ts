import { z } from 'zod';
import { free, type StartsJob } from '../define.js';
import { emailAddress, enrichmentType, isoTimestamp, resourceId } from './common.js';

export const audienceId = resourceId('audienceId').describe('The audienceId returned by createAudience.');

export const audienceStatus = z.enum(['DRAFT', 'BUILDING', 'NORMAL', 'FAILED']);
export const creationMethod = z.enum(['NORMAL', 'START_FROM_PROSPECTS']);

export const audienceSummary = z.object({
  audienceId: z.string(),
  name: z.string(),
  status: audienceStatus,
  creationMethod,
  audienceSearchLogicId: z.string(),
  numCompanies: z.number().int(),
  numProspects: z.number().int(),
  createdAt: isoTimestamp,
});

/** The fields an estimate and its trigger share; the trigger must repeat the estimate's values. */
export const enrichmentOptions = {
  maxProspectsToEnrich: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Cap on prospects enriched (default: all prospects of the audience).'),
  enrichmentType: enrichmentType.optional(),
  runCompanyLiveEnrichment: z
    .boolean()
    .default(false)
    .describe('Live-fetch each company from the professional network.'),
  runProfileLiveEnrichment: z
    .boolean()
    .default(false)
    .describe('Live-fetch each prospect profile from the professional network.'),
  runProfileSalesNav: z.boolean().default(false).describe('Add sales-tool data for prospects (free when available).'),
  runContactEnrichment: z.boolean().default(false).describe('Reveal emails and phones of the types in enrichmentType.'),
};

export const enrichmentSteps = [
  'Initialization',
  'Sales Tool Enrichment',
  'Live Enrichment',
  'Resubmitting Audience',
  'Cleaning Names',
  'Fetching Contact Details',
  'Validating Contact Details',
  'Exporting CSV',
  'Completed',
] as const;

export const exportOptions = {
  maxRowsToExport: z.number().int().positive().optional().describe('Row cap (at most maxRowsAllowed).'),
  excludeFields: z
    .array(z.string().min(1).max(64))
    .max(100)
    .optional()
    .describe('CSV columns to omit (see the README for the columns).'),
  utf8Bom: z
    .boolean()
    .default(false)
    .describe(
      'Start the file with the UTF-8 byte-order mark, so that Excel opens it as UTF-8 and shows names such as "Möller" as written.',
    ),
  userEmail: emailAddress.optional().describe('A download link is mailed here when the export is ready.'),
};

export const exportAccepted = z.object({
  exportId: z.string(),
  message: z.string(),
  estimatedRows: z.number().int(),
  maxRowsAllowed: z.number().int(),
  status: z.enum(['PENDING', 'RUNNING', 'READY', 'FAILED']),
});

/**
 * What exportCompanies and exportProspects share beyond their input: a free background job (its
 * rows count against the monthly export quota) that getExportStatus follows.
 */
export const exportJob = {
  output: exportAccepted,
  credits: free('Free; the rows count against the monthly export quota.'),
  rateLimitClass: 'heavy' as const,
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold' as const,
};

export const exportStatusJob: StartsJob<{ audienceId: string }, z.infer<typeof exportAccepted>> = {
  statusOperationId: 'getExportStatus',
  statusInput: (input, output) => ({ audienceId: input.audienceId, exportId: output.exportId }),
};
