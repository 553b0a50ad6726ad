-- Transcript items in per-contact order; an item is committed before it is acknowledged or delivered.
CREATE TABLE items (
  contact_id text NOT NULL REFERENCES contacts (contact_id),
  seq integer NOT NULL,
  item_id text NOT NULL UNIQUE,
  absolute_time timestamptz NOT NULL,
  item jsonb NOT NULL,
  PRIMARY KEY (contact_id, seq)
);

-- ClientToken idempotency: the stored response of a request, keyed with the body hash.
CREATE TABLE idempotency (
  participant_id text NOT NULL,
  operation text NOT NULL,
  client_token text NOT NULL,
  request_hash text NOT NULL,
  response jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (participant_id, operation, client_token, request_hash)
);
