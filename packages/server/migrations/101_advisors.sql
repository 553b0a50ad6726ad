-- Advisors, their sign-in sessions, and the contacts routed to them.
CREATE TABLE advisors (
  advisor_id text PRIMARY KEY,
  username text NOT NULL UNIQUE,
  display_name text NOT NULL,
  -- scrypt$N$r$p$salt$hash (agents/password.ts); never the password.
  password_hash text NOT NULL,
  -- Available | Offline
  availability text NOT NULL DEFAULT 'Offline',
  max_chats integer NOT NULL DEFAULT 10,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE advisor_sessions (
  -- SHA-256 of the bearer token; the token itself is never stored.
  token_hash text PRIMARY KEY,
  advisor_id text NOT NULL REFERENCES advisors (advisor_id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX advisor_sessions_advisor ON advisor_sessions (advisor_id);

-- A contact routed to a queue: waiting, then accepted by one advisor (active), then ended.
CREATE TABLE agent_contacts (
  contact_id text PRIMARY KEY,
  queue text NOT NULL,
  queued_at timestamptz NOT NULL,
  -- waiting | accepting | active | ended
  status text NOT NULL,
  advisor_id text REFERENCES advisors (advisor_id),
  participant_id text,
  -- The AGENT participant's token, handed back to the assigned advisor's console only.
  participant_token text,
  accepted_at timestamptz,
  ended_at timestamptz
);
CREATE INDEX agent_contacts_waiting ON agent_contacts (status, queued_at);
CREATE INDEX agent_contacts_advisor ON agent_contacts (advisor_id, status);

-- The demo advisor: username demo, password demo (hashed with scrypt and a random salt).
INSERT INTO advisors (advisor_id, username, display_name, password_hash, availability)
VALUES (
  'demo-advisor',
  'demo',
  'Sam',
  'scrypt$16384$8$1$mlGx1skqEopYgWZHQNACxw$d2_i8OL91XnC0lIiN4VS1-A5XRh_dnx59nRzmwTNEco',
  'Offline'
);
