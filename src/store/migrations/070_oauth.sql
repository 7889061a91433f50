-- Single sign-on for /mcp/v3: the state of our OAuth authorization server (oidc-provider) and of
-- the sign-ins at the external identity provider, all in PostgreSQL so that any instance can
-- serve any step of a flow.

-- Every oidc-provider model (clients registered dynamically, grants, sessions, interactions,
-- authorization codes, access and refresh tokens, replay detection) through its adapter interface.
-- The payload is the library's; the other columns are what lookups and revocation need.
CREATE TABLE oauth_models (
  kind         text NOT NULL,
  id           text NOT NULL,
  payload      jsonb NOT NULL,
  grant_id     text,
  uid          text,
  user_code    text,
  account_id   text,
  client_id    text,
  consumed_at  timestamptz,
  expires_at   timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, id)
);
CREATE INDEX oauth_models_grant ON oauth_models (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_models_uid ON oauth_models (uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth_models_user_code ON oauth_models (user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oauth_models_expiry ON oauth_models (expires_at) WHERE expires_at IS NOT NULL;
-- The remembered approvals: grants by client and account.
CREATE INDEX oauth_models_grants_by_account ON oauth_models (account_id, client_id) WHERE kind = 'Grant';

-- Keys of the authorization server that every instance must share: the JSON Web Key Set that
-- signs ID tokens. Created once by whichever instance starts first, read by all.
CREATE TABLE oauth_keys (
  name        text PRIMARY KEY,
  value       jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- A person at the external identity provider linked to an account by an operator
-- (npm run accounts -- link-identity), for people whose email does not match the account's.
CREATE TABLE oauth_identities (
  issuer      text NOT NULL,
  subject     text NOT NULL,
  account_id  bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX oauth_identities_account ON oauth_identities (account_id);

-- Sign-ins sent to the external identity provider and not yet back: the state (single use),
-- the PKCE verifier and the nonce, bound to the interaction that started them.
CREATE TABLE oauth_upstream_logins (
  state          text PRIMARY KEY,
  interaction    text NOT NULL,
  code_verifier  text NOT NULL,
  nonce          text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL,
  used_at        timestamptz
);
CREATE INDEX oauth_upstream_logins_expiry ON oauth_upstream_logins (expires_at);
