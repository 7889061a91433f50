import { estimateEnrichmentCost, getEnrichmentStatus, triggerEnrichment } from '../../../operations/index.js';
import { notImplemented } from './not-implemented.js';

export const enrichmentHandlers = [estimateEnrichmentCost, triggerEnrichment, getEnrichmentStatus].map(notImplemented);
