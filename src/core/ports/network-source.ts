import type { z } from 'zod';
import type { educationEntry, workExperienceEntry } from '../../../operations/schemas/records.js';

/**
 * The professional network as a live source of company and profile data.
 *
 * Contract of every adapter: resolve with the record, resolve with `null` when the network
 * has no such company or profile, and throw `NetworkSourceError` when the fetch itself
 * failed (outage, timeout, throttling, a reply that cannot be read). Callers fall back to
 * stored data on a throw and must never treat it as "not found".
 */
export interface NetworkSource {
  /** For logs: which adapter answered. */
  readonly name: string;
  fetchCompany(ref: CompanyRef, signal?: AbortSignal): Promise<LiveCompany | null>;
  fetchProfile(ref: ProfileRef, signal?: AbortSignal): Promise<LiveProfile | null>;
}

/** At least one of the two is set; the slug is preferred when both are. */
export interface CompanyRef {
  slug?: string | null;
  orgId?: number | null;
}

/** At least one of the two is set; the slug is preferred when both are. */
export interface ProfileRef {
  slug?: string | null;
  userId?: number | null;
}

export type EducationEntry = z.infer<typeof educationEntry>;
export type WorkExperienceEntry = z.infer<typeof workExperienceEntry>;

/** What the network says about a company now. Null fields are unknown to the network, not empty. */
export interface LiveCompany {
  slug: string | null;
  orgId: number | null;
  name: string;
  description: string | null;
  /** Websites of the company, as bare lowercase domains. */
  domains: string[];
  industries: string[];
  employeeCountMin: number | null;
  employeeCountMax: number | null;
  city: string | null;
  stateName: string | null;
  /** ISO 3166-1 alpha-2. */
  countryCode: string | null;
  /** YYYY-MM-DD. */
  foundedOn: string | null;
  /** The latest funding round the network shows (null: none); left out by a source that says nothing of funding. */
  latestFunding?: LiveFundingRound | null;
}

export interface LiveFundingRound {
  stage: string | null;
  amountUsd: number | null;
  /** YYYY-MM-DD. */
  announcedOn: string | null;
}

export interface LiveProfile {
  slug: string | null;
  userId: number | null;
  firstName: string;
  lastName: string;
  title: string;
  headline: string;
  city: string | null;
  /** ISO 3166-1 alpha-2. */
  countryCode: string | null;
  currentCompany: { name: string | null; slug: string | null; domain: string | null } | null;
  languages: Array<{ name: string; proficiency_name: string }>;
  education: EducationEntry[];
  workExperiences: WorkExperienceEntry[];
}

export type NetworkFailureKind = 'timeout' | 'unavailable' | 'invalid_response';

export class NetworkSourceError extends Error {
  readonly kind: NetworkFailureKind;

  constructor(kind: NetworkFailureKind, message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'NetworkSourceError';
    this.kind = kind;
  }
}
