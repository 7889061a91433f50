/** The API key a request came with, and what it may do. */
export interface KeyGrant {
  id: number;
  name: string | null;
  /** Only operations that are free and change nothing. */
  readOnly: boolean;
  /** Most credits the key may spend per UTC day; null: no cap. */
  dailyCreditCap: number | null;
}

/** Who a call runs for: the account, and the credential that proved it (a key, or an OAuth grant). */
export interface Principal {
  accountId: number;
  accountName: string;
  plan: string;
  email: string | null;
  /** The key the caller authenticated with; absent when it signed in otherwise. */
  key?: KeyGrant | null;
  /** The OAuth grant of /mcp/v3 the caller signed in with (its client and the scopes its token carries); absent for a key. */
  oauth?: OAuthGrant | null;
}

export interface OAuthGrant {
  clientId: string;
  scopes: readonly string[];
}
