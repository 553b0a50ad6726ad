-- What the visitor's browser told about itself when the chat started (issue 60, the visitor
-- panel): the User-Agent and Accept-Language headers of start-chat, each cut to a bound. A
-- table of its own, read only by the agent API, never on the participant path.
CREATE TABLE visitor_context (
  contact_id text PRIMARY KEY REFERENCES contacts (contact_id),
  user_agent text NOT NULL,
  accept_language text NOT NULL,
  recorded_at timestamptz NOT NULL
);
