-- Search over the team's history (issue 60): each ended conversation's messages and notes as
-- one text, and its full-text document (PostgreSQL's `simple` configuration: no stemming, any
-- language), built with the row when the conversation ends, never on the message path.
ALTER TABLE conversations ADD COLUMN body text NOT NULL DEFAULT '';
ALTER TABLE conversations
  ADD COLUMN document tsvector GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED;
CREATE INDEX conversations_document ON conversations USING gin (document);
