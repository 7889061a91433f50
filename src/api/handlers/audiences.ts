import {
  buildAudience, createAudience, exportCompanies, exportProspects, getAudienceStatus, getExportStatus,
  listAudienceCompanies, listAudienceProspects, listAudiences, updateAudienceSearchParams,
} from '../../../operations/index.js';
import { notImplemented } from './not-implemented.js';

export const audienceHandlers = [
  createAudience, updateAudienceSearchParams, buildAudience, getAudienceStatus, exportCompanies, exportProspects,
  getExportStatus, listAudiences, listAudienceCompanies, listAudienceProspects,
].map(notImplemented);
