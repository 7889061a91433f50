import type { CreditRule } from '../define.js';

/**
 * What the two live fetches (liveEnrichCompany, liveEnrichPerson) share: 2 credits charged at once
 * for live data and none for stored data, a heavy read that reaches the professional network. The
 * unit and the rule in words are each operation's own.
 */
export function liveFetchTerms(unit: string, rule: string) {
  return {
    credits: {
      unit,
      charged: 'now',
      rule,
      worstCase: () => 2,
      example: 'A live fetch costs 2 credits; a fallback to stored data costs 0.',
    } satisfies CreditRule<unknown>,
    rateLimitClass: 'heavy' as const,
    readOnly: true,
    destructive: false,
    idempotent: false,
    openWorld: true,
    confirmation: 'above-threshold' as const,
  };
}
