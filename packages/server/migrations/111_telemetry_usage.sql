-- What each chat stored of telemetry each day (issue 57: one chat stored 46 MB in 17 s within
-- its batch limits): rows and bytes, checked against the per-chat daily quota.
CREATE TABLE telemetry_usage (
  contact_id text NOT NULL,
  day date NOT NULL,
  rows integer NOT NULL,
  bytes bigint NOT NULL,
  PRIMARY KEY (contact_id, day)
);
