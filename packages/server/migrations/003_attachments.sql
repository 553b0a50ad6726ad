-- Attachments: bytes live in the database so both engines and restarts keep them.
CREATE TABLE attachments (
  attachment_id text PRIMARY KEY,
  contact_id text NOT NULL REFERENCES contacts (contact_id),
  participant_id text NOT NULL REFERENCES participants (participant_id),
  content_type text NOT NULL,
  name text NOT NULL,
  size_bytes integer NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  data bytea,
  created_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX attachments_contact ON attachments (contact_id);
