-- The page the visitor is on now and their time zone (issue 60, 1b), from the widget's page
-- reports; a contact started before 113 gets its row from the first report (empty headers).
ALTER TABLE visitor_context ADD COLUMN page_url text;
ALTER TABLE visitor_context ADD COLUMN page_title text;
ALTER TABLE visitor_context ADD COLUMN page_at timestamptz;
ALTER TABLE visitor_context ADD COLUMN time_zone text;
