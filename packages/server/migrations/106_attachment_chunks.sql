-- Attachment bytes in chunks (≤ 512 KiB each, src/contact-centre/attachment-chunks-repo.ts), so an
-- upload is written and a download read in bounded memory instead of as one 20 MB value.
-- Each PUT attempt writes under its own upload_id; attachments.upload_id names the attempt that
-- finished, so a retry or a concurrent attempt never mixes its chunks with another's.
CREATE TABLE attachment_chunks (
  attachment_id text NOT NULL REFERENCES attachments (attachment_id),
  upload_id text NOT NULL,
  seq integer NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (attachment_id, upload_id, seq)
);
-- Attachments are mostly compressed formats already (PDF, JPEG, PNG): skip TOAST's attempt.
ALTER TABLE attachment_chunks ALTER COLUMN data SET STORAGE EXTERNAL;

ALTER TABLE attachments ADD COLUMN upload_id text;
-- A not-completed upload lives until expires_at: its URL's expiry, then once its bytes are in
-- the same again to be completed. Past it, it no longer counts against the contact's quota
-- and the sweep deletes its chunks. NULL for completed attachments.
ALTER TABLE attachments ADD COLUMN expires_at timestamptz;
UPDATE attachments SET expires_at = created_at + interval '5 minutes' WHERE status <> 'completed';
CREATE INDEX attachments_expiry ON attachments (expires_at) WHERE status IN ('pending', 'uploaded');

-- Bytes stored before this migration become the single chunk of a 'migrated' upload.
INSERT INTO attachment_chunks (attachment_id, upload_id, seq, data)
  SELECT attachment_id, 'migrated', 0, data FROM attachments WHERE data IS NOT NULL;
UPDATE attachments SET upload_id = 'migrated' WHERE data IS NOT NULL;
ALTER TABLE attachments DROP COLUMN data;
