import {
  buildAudience,
  createAudience,
  deleteAudience,
  exportCompanies,
  exportProspects,
  getAudienceStatus,
  getExportStatus,
  listAudienceCompanies,
  listAudienceProspects,
  listAudiences,
  updateAudienceSearchParams,
} from '../../../operations/index.js';
import * as audiences from '../../core/audiences/audiences.js';
import { requireAudience } from '../../core/audiences/record.js';
import { startBuild } from '../../core/audiences/build.js';
import { deleteAudience as removeAudience } from '../../core/audiences/delete.js';
import { requestExport, exportStatus } from '../../core/audiences/exports.js';
import * as members from '../../core/audiences/members.js';
import { handle } from '../handler.js';

export const audienceHandlers = [
  handle(createAudience, async (input, { context, principal }) => {
    const row = await audiences.createAudience(context.db.pool, principal.accountId, input);
    const summary = audiences.summarize(row);
    return {
      output: {
        audienceId: summary.audienceId,
        name: summary.name,
        status: summary.status,
        creationMethod: summary.creationMethod,
        audienceSearchLogicId: summary.audienceSearchLogicId,
        createdAt: summary.createdAt,
      },
      message: 'Free. Next: set its filters with updateAudienceSearchParams.',
    };
  }),
  handle(updateAudienceSearchParams, async (input, { context, principal }) => {
    const row = await audiences.setSearchParams(context.db, principal.accountId, input.audienceId, input);
    return {
      output: {
        audienceId: String(row.id),
        audienceSearchLogicId: String(row.search_logic_id),
        companySearchParams: row.company_search_params,
        prospectSearchParams: row.prospect_search_params,
        maxCompanies: row.max_companies,
        maxProspects: row.max_prospects,
        companyExclusionListIDs: row.company_exclusion_list_ids.map(String),
        prospectExclusionListIDs: row.prospect_exclusion_list_ids.map(String),
      },
    };
  }),
  handle(buildAudience, async (input, { context, principal }) => {
    const row = await startBuild(context.db, principal.accountId, input.audienceId);
    const searches =
      row.creation_method === 'NORMAL'
        ? `up to ${row.max_companies} companies by the company filters, then up to ${row.max_prospects} prospects at them`
        : `up to ${row.max_prospects} prospects by the prospect filters`;
    return {
      output: {
        audienceId: String(row.id),
        status: row.status,
        message:
          `Build started: searching ${searches}. Poll getAudienceStatus every 30 to 60 seconds until NORMAL. ` +
          `Credits: 1 per company plus 1 per prospect found (at most ${row.creation_method === 'NORMAL' ? row.max_companies + row.max_prospects : row.max_prospects}), ` +
          'charged once when the build completes; a build the balance cannot pay ends FAILED and charges nothing.',
      },
    };
  }),
  handle(getAudienceStatus, async (input, { context, principal }) => {
    const row = await requireAudience(context.db.pool, principal.accountId, input.audienceId);
    return { output: { ...audiences.audienceStatusView(row), buildWorstCaseCredits: audiences.buildWorstCase(row) } };
  }),
  handle(exportCompanies, async (input, { context, principal }) => ({
    output: await requestExport(context, principal.accountId, { ...input, kind: 'companies' }),
  })),
  handle(exportProspects, async (input, { context, principal }) => ({
    output: await requestExport(context, principal.accountId, { ...input, kind: 'prospects' }),
  })),
  handle(getExportStatus, async (input, { context, principal }) => ({
    output: await exportStatus(context, principal.accountId, input.audienceId, input.exportId),
  })),
  handle(listAudiences, async (input, { context, principal }) => ({
    output: await audiences.listAudiences(context.db.pool, context.services.cursors, principal.accountId, input),
  })),
  handle(listAudienceCompanies, async (input, { context, principal }) => ({
    output: await members.listAudienceCompanies(context.db.pool, context.services.cursors, principal.accountId, input),
  })),
  handle(deleteAudience, async (input, { context, principal }) => {
    const deleted = await removeAudience(context, principal.accountId, input.audienceId);
    return {
      output: deleted,
      ...(deleted.refundedCredits > 0
        ? { message: `Free. ${deleted.refundedCredits} credits of the cancelled enrichment were refunded.` }
        : {}),
    };
  }),
  handle(listAudienceProspects, async (input, { context, principal }) => ({
    output: await members.listAudienceProspects(context.db.pool, context.services.cursors, principal.accountId, input),
  })),
];
