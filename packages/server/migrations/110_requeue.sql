-- A chat can go back to its queue (issue 57: its advisor was disabled, signed out or had their
-- password reset): when it last did, so the visitor is told their place again.
ALTER TABLE agent_contacts ADD COLUMN requeued_at timestamptz;
