import { promises as dns } from 'node:dns';
import type { MailDomainChecker } from '../../core/contacts/validation.js';

/** The subset of node's DNS resolver used here; `dns.promises` and a `dns.promises.Resolver` both fit. */
export interface MxResolver {
  resolveMx(hostname: string): Promise<Array<{ exchange: string; priority: number }>>;
  resolve4(hostname: string): Promise<string[]>;
}

/**
 * Real DNS: a domain receives mail when it has MX records (other than the RFC 7505 null MX),
 * or, without MX, an address record (the implicit MX of RFC 5321). A name that does not exist
 * is refused; a resolver failure (timeout, SERVFAIL) accepts, because a DNS hiccup must not
 * throw away a contact a provider found. Answers are cached per domain.
 */
export class DnsMailDomainChecker implements MailDomainChecker {
  readonly name = 'dns';
  private readonly cache = new Map<string, { accepts: boolean; expiresAt: number }>();

  constructor(
    private readonly resolver: MxResolver = dns,
    private readonly options: { cacheSeconds?: number; maxEntries?: number } = {},
  ) {}

  async acceptsMail(domain: string): Promise<boolean> {
    const name = domain.toLowerCase().replace(/\.$/, '');
    const cached = this.cache.get(name);
    const now = Date.now();
    if (cached && cached.expiresAt > now) return cached.accepts;
    const accepts = await this.lookUp(name);
    if (this.cache.size >= (this.options.maxEntries ?? 10_000)) this.cache.clear();
    this.cache.set(name, { accepts, expiresAt: now + (this.options.cacheSeconds ?? 600) * 1000 });
    return accepts;
  }

  private async lookUp(name: string): Promise<boolean> {
    try {
      const records = await this.resolver.resolveMx(name);
      const real = records.filter((r) => r.exchange !== '' && r.exchange !== '.');
      if (real.length > 0) return true;
      if (records.length > 0) return false;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENOTFOUND') return false;
      if (code !== 'ENODATA') return true;
    }
    try {
      return (await this.resolver.resolve4(name)).length > 0;
    } catch (error) {
      const code = (error as { code?: string }).code;
      return !(code === 'ENOTFOUND' || code === 'ENODATA');
    }
  }
}
