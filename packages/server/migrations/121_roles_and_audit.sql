-- Roles and the audit log (issue 62). An advisor holds one or more of advisor, supervisor and
-- admin; every advisor so far is an advisor. The audit log keeps each admin action: who did it
-- (an admin's username, or the admin token, or the CLI), what, to whom, when and from where.
ALTER TABLE advisors ADD COLUMN roles text[] NOT NULL DEFAULT ARRAY['advisor']::text[];

CREATE TABLE audit_log (
  audit_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL,
  actor text NOT NULL,
  action text NOT NULL,
  target text,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb,
  address text
);
