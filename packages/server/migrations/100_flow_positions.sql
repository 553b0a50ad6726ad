-- Where each contact is in its contact flow, so a restart or a second process continues correctly.
CREATE TABLE flow_positions (
  contact_id text PRIMARY KEY,
  flow_id text NOT NULL,
  -- The state waiting for the customer's message; null once the flow is over.
  waiting_in text,
  -- Bot messages sent and not yet echoed back by the widget (JSON array of strings).
  pending_echoes jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- queued | ended | finished, once the flow is over.
  outcome text,
  bot_participant_id text,
  assistant_participant_id text,
  -- Optimistic concurrency: every change increments it.
  version integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL
);
