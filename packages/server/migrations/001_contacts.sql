-- Contacts, their participants and the tokens that reach them.
CREATE TABLE contacts (
  contact_id text PRIMARY KEY,
  initial_contact_id text NOT NULL,
  instance_id text NOT NULL,
  contact_flow_id text NOT NULL,
  status text NOT NULL DEFAULT 'active',
  attributes jsonb NOT NULL DEFAULT '{}'::jsonb,
  supported_content_types jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL,
  ended_at timestamptz,
  -- Per-contact order of transcript items, advanced under the row lock.
  last_seq integer NOT NULL DEFAULT 0,
  last_item_at timestamptz
);

CREATE TABLE participants (
  participant_id text PRIMARY KEY,
  contact_id text NOT NULL REFERENCES contacts (contact_id),
  role text NOT NULL,
  display_name text NOT NULL,
  -- SHA-256 of the participant token; the token itself is never stored.
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  first_connection_at timestamptz,
  connected_at timestamptz,
  left_at timestamptz
);
CREATE INDEX participants_contact ON participants (contact_id);

CREATE TABLE connection_tokens (
  token_hash text PRIMARY KEY,
  participant_id text NOT NULL REFERENCES participants (participant_id),
  expires_at timestamptz NOT NULL
);

CREATE TABLE websocket_tokens (
  token_hash text PRIMARY KEY,
  participant_id text NOT NULL REFERENCES participants (participant_id),
  expires_at timestamptz NOT NULL
);
