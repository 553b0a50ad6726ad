-- Canned responses (issue 60): the team's shared ones (advisor_id NULL, managed by an admin) and
-- each advisor's own; a shortcut names one once per owner.
CREATE TABLE canned_responses (
  canned_id text PRIMARY KEY,
  advisor_id text,
  shortcut text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX canned_responses_shared_shortcut ON canned_responses (shortcut)
  WHERE advisor_id IS NULL;
CREATE UNIQUE INDEX canned_responses_own_shortcut ON canned_responses (advisor_id, shortcut)
  WHERE advisor_id IS NOT NULL;
