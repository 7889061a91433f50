import { contactTypePrices } from '../../../operations/contacts/reveal-contact-sync/definition.js';
import type { Principal } from '../principal.js';
import { AppError } from '../../errors.js';
import type { ContactFindings, ContactTypes } from '../ports/contact-providers.js';
import type { ProfileRef } from '../ports/network-source.js';
import type { Queryable } from '../../store/db.js';
import { revealContactDetails } from './lookup.js';
import { charge, getBalance, requestEntry, type ChargeOrigin } from '../credits.js';
import { parsePersonIdentifier } from './identifiers.js';
import type { DbDeps, ServicesDeps } from '../deps.js';

/**
 * Contact reveal for one person. Two prices:
 * - sync (revealContactSync): per type found, work email 2, personal email 2, phone 3;
 *   a type that finds nothing costs nothing.
 * - single (revealContactSingle): 1 credit per attempt, found or not, for a work email and a
 *   direct phone together.
 * Neither charges when the contact providers could not be asked at all (an outage is not an
 * attempt the caller should pay for): that is a 502 and the caller retries.
 */

export interface FoundContacts {
  workEmails: string[];
  personalEmails: string[];
  phoneNumbers: string[];
}

export interface CreditsByType {
  workEmails: number;
  personalEmails: number;
  phoneNumbers: number;
}

/** What the contacts found cost under the per-type rule; types not asked for are never charged. */
export function priceOfFound(found: FoundContacts, types: ContactTypes): CreditsByType {
  return {
    workEmails: types.getWorkEmails && found.workEmails.length > 0 ? contactTypePrices.workEmail : 0,
    personalEmails: types.getPersonalEmails && found.personalEmails.length > 0 ? contactTypePrices.personalEmail : 0,
    phoneNumbers: types.getPhoneNumbers && found.phoneNumbers.length > 0 ? contactTypePrices.phone : 0,
  };
}

export const totalOf = (credits: CreditsByType): number =>
  credits.workEmails + credits.personalEmails + credits.phoneNumbers;

/** The most one person can cost for these types. */
export function worstCaseOf(types: ContactTypes): number {
  return (
    (types.getWorkEmails ? contactTypePrices.workEmail : 0) +
    (types.getPersonalEmails ? contactTypePrices.personalEmail : 0) +
    (types.getPhoneNumbers ? contactTypePrices.phone : 0)
  );
}

/** The cheapest type asked for: below it, nothing found could be paid for. */
function cheapestOf(types: ContactTypes): number {
  const prices = [
    types.getWorkEmails ? contactTypePrices.workEmail : Infinity,
    types.getPersonalEmails ? contactTypePrices.personalEmail : Infinity,
    types.getPhoneNumbers ? contactTypePrices.phone : Infinity,
  ];
  return Math.min(...prices);
}

export const valuesOf = (findings: ContactFindings): FoundContacts => ({
  workEmails: findings.workEmails.map((c) => c.value),
  personalEmails: findings.personalEmails.map((c) => c.value),
  phoneNumbers: findings.phoneNumbers.map((c) => c.value),
});

export interface SyncRevealResult extends FoundContacts {
  profileUrl: string;
  found: boolean;
  creditsByType: CreditsByType;
  creditsCharged: number;
}

export async function revealSync(
  context: DbDeps & ServicesDeps<'contactWaterfall'>,
  principal: Principal,
  input: { profileUrl: string; enrichmentType: ContactTypes },
  origin: ChargeOrigin,
): Promise<SyncRevealResult> {
  const ref = parsePersonIdentifier(input.profileUrl, 'profileUrl');
  const types = input.enrichmentType;
  const personId = await findPersonId(context.db.pool, ref);
  const none = { workEmails: 0, personalEmails: 0, phoneNumbers: 0 };
  if (personId === null) {
    return {
      profileUrl: input.profileUrl,
      found: false,
      workEmails: [],
      personalEmails: [],
      phoneNumbers: [],
      creditsByType: none,
      creditsCharged: 0,
    };
  }
  const balance = await getBalance(context.db.pool, principal.accountId);
  if (balance < cheapestOf(types)) {
    throw new AppError(
      'insufficient_credits',
      `A contact found here costs at least ${cheapestOf(types)} credits and the balance is ${balance}. Nothing was charged.`,
      {
        details: { required: cheapestOf(types), balance },
      },
    );
  }
  const result = (await revealContactDetails(context, [personId], types)).get(personId);
  if (!result || result.unavailable) throw providersUnavailable();
  const found = valuesOf(result);
  const creditsByType = priceOfFound(found, types);
  const amount = totalOf(creditsByType);
  // The contacts are shown only once paid for: a short balance withholds them all.
  await context.db.transaction((tx) =>
    charge(tx, principal.accountId, amount, requestEntry(origin, 'revealContact', 'contact reveal (sync)')),
  );
  return { profileUrl: input.profileUrl, found: true, ...found, creditsByType, creditsCharged: amount };
}

export const singleRevealPrice = 1;

export interface SingleRevealResult {
  profileUrl: string;
  found: boolean;
  workEmail: string | null;
  directPhone: string | null;
  creditsCharged: number;
}

export async function revealSingle(
  context: DbDeps & ServicesDeps<'contactWaterfall'>,
  principal: Principal,
  input: { profileUrl: string },
  origin: ChargeOrigin,
): Promise<SingleRevealResult> {
  const ref = parsePersonIdentifier(input.profileUrl, 'profileUrl');
  const balance = await getBalance(context.db.pool, principal.accountId);
  if (balance < singleRevealPrice) {
    throw new AppError(
      'insufficient_credits',
      `A reveal attempt costs ${singleRevealPrice} credit and the balance is ${balance}. Nothing was charged.`,
      {
        details: { required: singleRevealPrice, balance },
      },
    );
  }
  const personId = await findPersonId(context.db.pool, ref);
  let workEmail: string | null = null;
  let directPhone: string | null = null;
  if (personId !== null) {
    const result = (
      await revealContactDetails(context, [personId], {
        getWorkEmails: true,
        getPersonalEmails: false,
        getPhoneNumbers: true,
      })
    ).get(personId);
    if (!result || result.unavailable) throw providersUnavailable();
    workEmail = result.workEmails[0]?.value ?? null;
    directPhone = result.phoneNumbers[0]?.value ?? null;
  }
  await context.db.transaction((tx) =>
    charge(
      tx,
      principal.accountId,
      singleRevealPrice,
      requestEntry(origin, 'revealContactSingle', 'single contact reveal'),
    ),
  );
  return {
    profileUrl: input.profileUrl,
    found: workEmail !== null || directPhone !== null,
    workEmail,
    directPhone,
    creditsCharged: singleRevealPrice,
  };
}

function providersUnavailable(): AppError {
  return new AppError(
    'upstream_unavailable',
    'The contact-data providers could not be reached. Nothing was charged; retry in a minute.',
  );
}

/** The catalog id of the person a reference names, or null. A numeric reference is a user ID first, then a slug. */
export async function findPersonId(db: Queryable, ref: ProfileRef): Promise<number | null> {
  if (ref.userId) {
    const byId = await db.query<{ id: number }>(
      'SELECT id FROM people WHERE network_user_id = $1 ORDER BY id LIMIT 1',
      [ref.userId],
    );
    if (byId.rows[0]) return byId.rows[0].id;
  }
  if (ref.slug) {
    const bySlug = await db.query<{ id: number }>('SELECT id FROM people WHERE network_slug = $1 ORDER BY id LIMIT 1', [
      ref.slug,
    ]);
    if (bySlug.rows[0]) return bySlug.rows[0].id;
  }
  return null;
}
