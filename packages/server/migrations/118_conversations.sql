-- The team's history (issue 60). Which advisors took part in each chat, recorded when one joins
-- (the agent_contacts row keeps only the last); and one row per ended conversation, built once
-- it ends (never on the message path), which the History view lists and filters.
CREATE TABLE contact_advisors (
  contact_id text NOT NULL REFERENCES contacts (contact_id),
  advisor_id text NOT NULL,
  advisor_name text NOT NULL,
  joined_at timestamptz NOT NULL,
  PRIMARY KEY (contact_id, advisor_id)
);
CREATE INDEX contact_advisors_advisor ON contact_advisors (advisor_id, contact_id);

CREATE TABLE conversations (
  contact_id text PRIMARY KEY REFERENCES contacts (contact_id),
  started_at timestamptz NOT NULL,
  ended_at timestamptz NOT NULL,
  customer_name text NOT NULL,
  customer_email text,
  advisors jsonb NOT NULL DEFAULT '[]'::jsonb,
  first_line text
);
CREATE INDEX conversations_ended ON conversations (ended_at DESC, contact_id DESC);
CREATE INDEX conversations_started ON conversations (started_at);
