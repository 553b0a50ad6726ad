-- Tags and wrap-up (issue 60). A conversation's tags, free words the team shares (lower case),
-- found by tag for the History filter and the suggestions. A wrap-up is a note of its own kind,
-- one per conversation, written once it has ended.
CREATE TABLE contact_tags (
  contact_id text NOT NULL REFERENCES contacts (contact_id),
  tag text NOT NULL,
  added_by text NOT NULL,
  added_at timestamptz NOT NULL,
  PRIMARY KEY (contact_id, tag)
);
CREATE INDEX contact_tags_tag ON contact_tags (tag, contact_id);

ALTER TABLE contact_notes ADD COLUMN kind text NOT NULL DEFAULT 'note';
CREATE UNIQUE INDEX contact_notes_wrap_up ON contact_notes (contact_id) WHERE kind = 'wrap-up';
