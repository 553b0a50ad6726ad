-- Internal notes (issue 60): advisors' notes on a conversation, in a table of their own so they
-- can never reach a participant (they are not transcript items). A ClientToken makes a retried
-- write give the first note again.
CREATE TABLE contact_notes (
  note_id text PRIMARY KEY,
  contact_id text NOT NULL REFERENCES contacts (contact_id),
  advisor_id text NOT NULL,
  advisor_name text NOT NULL,
  body text NOT NULL,
  mentions jsonb NOT NULL DEFAULT '[]'::jsonb,
  client_token text,
  created_at timestamptz NOT NULL
);
CREATE INDEX contact_notes_contact ON contact_notes (contact_id, created_at);
CREATE UNIQUE INDEX contact_notes_client_token ON contact_notes (contact_id, advisor_id, client_token)
  WHERE client_token IS NOT NULL;
