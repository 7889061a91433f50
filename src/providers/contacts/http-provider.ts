import { z } from 'zod';
import { createDispatcher, HttpCallError, httpJson } from '../network/http-json.js';
import {
  emptyFindings,
  kindsOf,
  type Confidence,
  type ContactFindings,
  type ContactKind,
  type ContactProvider,
  type ContactTypes,
  type PersonForLookup,
} from '../../core/ports/contact-providers.js';

/**
 * A contact-data vendor over HTTP (CONTACT_PROVIDER_URL). The vendor API, as this adapter
 * speaks it:
 *
 *   POST {base}/lookup     Authorization: Bearer {CONTACT_PROVIDER_API_KEY}
 *   { "types": ["work_email" | "personal_email" | "phone", ...],
 *     "people": [{ "ref", "first_name", "last_name", "company_name", "company_domain", "profile_url" }] }
 *   200 → { "results": [{ "ref", "work_emails": [...], "personal_emails": [...], "phones": [...] }] }
 *
 * Each listed contact is a string or `{ "value", "confidence": "high" | "medium" | "low" }`
 * (a bare string counts as medium). People are sent in chunks of `chunkSize`; any status
 * but 200, an unreadable body or no answer within the timeout fails the whole lookup.
 */
export interface HttpContactProviderOptions {
  name?: string;
  baseUrl: string;
  apiKey?: string | undefined;
  timeoutMs: number;
  chunkSize?: number;
}

const vendorKind: Record<ContactKind, string> = {
  workEmails: 'work_email',
  personalEmails: 'personal_email',
  phoneNumbers: 'phone',
};

const contactValue = z.union([
  z
    .string()
    .min(1)
    .transform((value) => ({ value, confidence: 'medium' as Confidence })),
  z.looseObject({ value: z.string().min(1), confidence: z.enum(['high', 'medium', 'low']).default('medium') }),
]);

const vendorReply = z.looseObject({
  results: z.array(
    z.looseObject({
      ref: z.union([z.string(), z.number()]).transform(String),
      work_emails: z.array(contactValue).nullish(),
      personal_emails: z.array(contactValue).nullish(),
      phones: z.array(contactValue).nullish(),
    }),
  ),
});

export class HttpContactProvider implements ContactProvider {
  readonly name: string;
  private readonly baseUrl: string;
  private readonly chunkSize: number;
  private readonly dispatcher;

  constructor(private readonly options: HttpContactProviderOptions) {
    this.name = options.name ?? 'http';
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.chunkSize = options.chunkSize ?? 100;
    this.dispatcher = createDispatcher(options.timeoutMs);
  }

  async lookup(
    people: readonly PersonForLookup[],
    types: ContactTypes,
    signal?: AbortSignal,
  ): Promise<Map<number, ContactFindings>> {
    const kinds = kindsOf(types);
    const found = new Map<number, ContactFindings>();
    if (people.length === 0 || kinds.length === 0) return found;
    for (let start = 0; start < people.length; start += this.chunkSize) {
      const chunk = people.slice(start, start + this.chunkSize);
      const reply = await this.call(chunk, kinds, signal);
      const asked = new Set(chunk.map((p) => String(p.id)));
      for (const result of reply.results) {
        // A vendor answering for someone we did not ask about is ignored, not trusted.
        if (!asked.has(result.ref)) continue;
        const findings = emptyFindings();
        const lists: Record<ContactKind, typeof result.work_emails> = {
          workEmails: result.work_emails,
          personalEmails: result.personal_emails,
          phoneNumbers: result.phones,
        };
        for (const kind of kinds) {
          for (const item of lists[kind] ?? [])
            findings[kind].push({ value: item.value.trim(), confidence: item.confidence, provider: this.name });
        }
        found.set(Number(result.ref), findings);
      }
    }
    return found;
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  private async call(
    chunk: readonly PersonForLookup[],
    kinds: ContactKind[],
    signal: AbortSignal | undefined,
  ): Promise<z.infer<typeof vendorReply>> {
    let response;
    try {
      response = await httpJson({
        method: 'POST',
        url: `${this.baseUrl}/lookup`,
        apiKey: this.options.apiKey,
        timeoutMs: this.options.timeoutMs,
        signal,
        dispatcher: this.dispatcher,
        body: {
          types: kinds.map((k) => vendorKind[k]),
          people: chunk.map((p) => ({
            ref: String(p.id),
            first_name: p.firstName,
            last_name: p.lastName,
            company_name: p.companyName,
            company_domain: p.companyDomain,
            profile_url: p.profileUrl,
          })),
        },
      });
    } catch (error) {
      if (error instanceof HttpCallError) throw new ContactProviderError(this.name, error.message, { cause: error });
      throw error;
    }
    if (response.status !== 200) throw new ContactProviderError(this.name, `answered HTTP ${response.status}`);
    const parsed = vendorReply.safeParse(response.body);
    if (!parsed.success)
      throw new ContactProviderError(
        this.name,
        `sent a reply that does not parse: ${parsed.error.issues[0]?.message ?? ''}`,
      );
    return parsed.data;
  }
}

export class ContactProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(`contact provider ${provider}: ${message}`, { cause: options.cause });
    this.name = 'ContactProviderError';
  }
}
