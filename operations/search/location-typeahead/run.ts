import { locationTypeahead } from './definition.js';
import { chargeForRecords } from '../../../src/core/metering.js';
import { suggestLocations, type LocationKind } from '../../../src/core/typeahead.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(locationTypeahead, async (input, { context, principal, requestId }) => {
  const data = suggestLocations(input.query, input.kinds.split(',') as LocationKind[], input.limit);
  const creditsCharged = await chargeForRecords(context, principal, 1, {
    unit: locationTypeahead.credits.unit,
    reason: 'location typeahead',
    reference: requestId,
  });
  return { output: { data }, creditsCharged };
});
