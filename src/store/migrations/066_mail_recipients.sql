-- Addresses an account may have its notifications (export links, enrichment results) mailed to,
-- besides its own email: registered by an operator (npm run accounts -- add-recipient).
CREATE TABLE account_mail_recipients (
  account_id  bigint NOT NULL,
  email       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, email)
);
