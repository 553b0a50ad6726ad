-- Continuing a chat needs proof (issue 57): the verified subject of the visitor jwt the chat was
-- started with, else the hash of the continuation secret its customer received; and a chat is
-- continued (its transcript copied) at most once: `continued_by` names the chat that did.
ALTER TABLE contacts ADD COLUMN visitor_subject text;
ALTER TABLE contacts ADD COLUMN continuation_hash text;
ALTER TABLE contacts ADD COLUMN continued_by text;
