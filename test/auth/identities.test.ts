import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountForIdentity, linkIdentity, sameAccountEmail } from '../../src/auth/identities.js';
import { createAccount } from '../../src/core/accounts.js';
import { HeadlessBrowser } from './browser.js';
import {
  atRedirect,
  authorizationUrl,
  people,
  pkcePair,
  registerClient,
  signInAtUpstream,
  startSsoApp,
  type SsoApp,
} from './helpers.js';

/**
 * Who a signed-in person is: an operator's link of issuer and subject first, then a verified
 * email that is the account's address exactly, the domain's ASCII letters in any case. Letters
 * that Unicode folds or normalises onto others (the Kelvin sign, dotted and dotless i, full-width
 * forms, combining marks, look-alikes from other scripts) name another address, and nobody.
 */
describe('identities', () => {
  let sso: SsoApp;
  const ids: Record<string, number> = {};
  const issuer = 'https://idp.example';
  beforeAll(async () => {
    sso = await startSsoApp();
    const addresses = {
      kate: 'kate@beta.example',
      ivan: 'ivan@beta.example',
      dina: 'dina@mail.example',
      zoe: 'zoe@kappa.example',
      asa: 'åsa@beta.example',
      rene: 'ren\u00e9@beta.example',
      linked: 'linked@beta.example',
      // As an operator typed it: the local part's capitals are kept, the domain's are not.
      ann: ' Ann.Lee@Gamma.Example ',
    };
    for (const [name, email] of Object.entries(addresses))
      ids[name] = (await createAccount(sso.app.db, { name: `Identity ${name}`, email })).account.id;
  });
  afterAll(async () => {
    await sso?.stop();
  });

  const who = async (email: string | null, options: { verified?: boolean; subject?: string } = {}) =>
    (
      await accountForIdentity(sso.app.db.pool, {
        issuer,
        subject: options.subject ?? `subject-of-${email}`,
        email,
        emailVerified: options.verified ?? true,
        name: null,
      })
    )?.id ?? null;

  it('matches a verified address exactly, the domain in any ASCII case', async () => {
    expect(await who('kate@beta.example')).toBe(ids.kate);
    expect(await who('kate@BETA.Example')).toBe(ids.kate);
    expect(await who('dina@MAIL.example')).toBe(ids.dina);
    expect(await who('ren\u00e9@beta.example')).toBe(ids.rene);
  });

  it('keeps the local part of an address an operator typed as it was typed, and matches it exactly', async () => {
    expect(await who('Ann.Lee@gamma.example')).toBe(ids.ann);
    expect(await who('Ann.Lee@GAMMA.EXAMPLE')).toBe(ids.ann);
    expect(await who('ann.lee@gamma.example')).toBeNull();
  });

  it('matches nothing that is another address, however it folds or looks', async () => {
    const others = {
      'Kelvin sign in the local part': '\u212Aate@beta.example',
      'Kelvin sign in the domain': 'zoe@\u212Aappa.example',
      'Angstrom sign': '\u212Bsa@beta.example',
      'dotless i': '\u0131van@beta.example',
      'dotted capital I': '\u0130van@beta.example',
      'dotted capital I in the domain': 'dina@ma\u0130l.example',
      'full-width letters': '\uff4b\uff41\uff54\uff45@beta.example',
      'a full-width domain': 'kate@\uff42\uff45\uff54\uff41.example',
      'a full-width at sign': 'kate\uff20beta.example',
      'a combining acute accent added': 'kate\u0301@beta.example',
      'the same letter decomposed': 'rene\u0301@beta.example',
      'a combining mark in the domain': 'kate@beta\u0307.example',
      'a Cyrillic e in the domain': 'kate@b\u0435ta.example',
      'a Cyrillic a in the domain': 'kate@beta.ex\u0430mple',
      'a Greek omicron in the local part': 'z\u03bfe@kappa.example',
      'capitals in the local part': 'Kate@beta.example',
      'surrounding spaces': ' kate@beta.example ',
      'two at signs': 'kate@beta.example@beta.example',
      'no domain': 'kate@',
    };
    for (const [why, email] of Object.entries(others)) expect(await who(email), why).toBeNull();
    expect(await who('kate@beta.example', { verified: false })).toBeNull();
    expect(await who(null)).toBeNull();
  });

  it('takes an operator link before any email, and the email rule is the same function everywhere', async () => {
    await linkIdentity(sso.app.db.pool, ids.linked as number, issuer, 'linked-subject');
    expect(await who('kate@beta.example', { subject: 'linked-subject' })).toBe(ids.linked);
    expect(await who('\u212Aate@beta.example', { subject: 'linked-subject', verified: false })).toBe(ids.linked);
    expect(sameAccountEmail('kate@Beta.EXAMPLE', 'kate@beta.example')).toBe(true);
    expect(sameAccountEmail('\u212Aate@beta.example', 'kate@beta.example')).toBe(false);
    expect(sameAccountEmail('kate@beta.example', 'kate@b\u0435ta.example')).toBe(false);
  });

  it('an identity provider user with a Kelvin-sign address is not signed in as kate', async () => {
    const client = await registerClient(sso, { client_name: 'Kelvin probe' });
    const redirectUri = 'http://127.0.0.1:8765/callback';
    const browser = new HeadlessBrowser();
    const { challenge } = pkcePair();
    const page = await signInAtUpstream(
      browser,
      authorizationUrl(sso, client.client_id, { challenge }),
      people.kelvin,
      redirectUri,
    );
    expect(page.status).toBe(403);
    expect(page.text).toContain('No account for this sign-in');
    const back = await browser.submit(page, 'abort', atRedirect(redirectUri));
    expect(back.url.searchParams.get('code')).toBeNull();
    const grants = await sso.app.db.pool.query(
      `SELECT count(*) AS n FROM oauth_models WHERE kind = 'Grant' AND account_id = $1`,
      [String(ids.kate)],
    );
    expect(Number(grants.rows[0]?.n)).toBe(0);
  });
});
