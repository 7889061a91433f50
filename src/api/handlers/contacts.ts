import {
  liveEnrichCompany, liveEnrichPerson, pollBatchContactEnrichment, revealContactSingle, revealContactSync, startBatchContactEnrichment,
} from '../../../operations/index.js';
import { notImplemented } from './not-implemented.js';

export const contactHandlers = [
  revealContactSync, revealContactSingle, startBatchContactEnrichment, pollBatchContactEnrichment, liveEnrichCompany, liveEnrichPerson,
].map(notImplemented);
