-- /mcp/v3 sign-ins used to reach the REST API through a key derived from the signing secret for
-- each account (label below). The gateway now runs their operations in process as the account,
-- so nothing uses these keys any more; revoked, they cannot be derived and used by anyone who
-- learns the secret. The rows stay, as revoked keys do, for the record.
UPDATE api_keys SET revoked_at = now()
 WHERE label = 'mcp/v3 gateway (derived for OAuth sign-ins; never shown)' AND revoked_at IS NULL;
