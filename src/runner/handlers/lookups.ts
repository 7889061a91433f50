import {
  companyTypeahead,
  findPersonByWorkEmail,
  listCountrySubdivisions,
  listJobTitleTaxonomy,
  listLanguages,
  listTags,
  listTimeZones,
  locationTypeahead,
  validateEmail,
} from '../../../operations/index.js';
import { findPersonByWorkEmail as lookUpWorkEmail, validateEmailAddress } from '../../core/contacts/email-check.js';
import { chargeForRecords } from '../../core/metering.js';
import * as enums from '../../core/reference/enums.js';
import { suggestCompanies, suggestLocations, type LocationKind } from '../../core/typeahead.js';
import { handle } from '../handler.js';

/** Typeahead, reference enums and email checks: small lookups, each answered from an index or from memory. */
export const lookupHandlers = [
  handle(companyTypeahead, async (input, { context, principal, requestId, signal }) => {
    const data = await context.db.catalogRead(signal, (db) => suggestCompanies(db, input.query, input.limit));
    const creditsCharged = await chargeForRecords(context, principal, 1, {
      unit: companyTypeahead.credits.unit,
      reason: 'company typeahead',
      reference: requestId,
    });
    return { output: { data }, creditsCharged };
  }),
  handle(locationTypeahead, async (input, { context, principal, requestId }) => {
    const data = suggestLocations(input.query, input.kinds.split(',') as LocationKind[], input.limit);
    const creditsCharged = await chargeForRecords(context, principal, 1, {
      unit: locationTypeahead.credits.unit,
      reason: 'location typeahead',
      reference: requestId,
    });
    return { output: { data }, creditsCharged };
  }),
  handle(listTags, async () => ({ output: enums.listTags() })),
  handle(listJobTitleTaxonomy, async () => ({ output: enums.listJobTitleTaxonomy() })),
  handle(listLanguages, async () => ({ output: enums.listLanguages() })),
  handle(listTimeZones, async () => ({ output: enums.listTimeZones() })),
  handle(listCountrySubdivisions, async (input) => ({ output: enums.listCountrySubdivisions(input.countryCode) })),
  handle(validateEmail, async (input, { context, principal, requestId, ledgerKey }) => {
    const verdict = await validateEmailAddress(context, input.email);
    const creditsCharged = await chargeForRecords(context, principal, 1, {
      unit: validateEmail.credits.unit,
      reason: 'email validation',
      reference: requestId,
      ...(ledgerKey ? { idempotencyKey: ledgerKey } : {}),
    });
    return { output: verdict, creditsCharged };
  }),
  handle(findPersonByWorkEmail, async (input, { context, principal, requestId, signal, ledgerKey }) => {
    const person = await context.db.catalogRead(signal, (db) => lookUpWorkEmail(db, input.email));
    const creditsCharged = await chargeForRecords(context, principal, person ? 2 : 0, {
      unit: findPersonByWorkEmail.credits.unit,
      reason: 'person by work email',
      reference: requestId,
      ...(ledgerKey ? { idempotencyKey: ledgerKey } : {}),
    });
    return { output: { email: input.email, found: person !== null, person }, creditsCharged };
  }),
];
