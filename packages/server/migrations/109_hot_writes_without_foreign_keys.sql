-- The references every chat set-up and message wrote through: PostgreSQL checked each row with
-- a trigger, a query and a lock on the row it names (nine a set-up, one a message), about a
-- quarter of a set-up's time and a tenth of a message's on PGlite (issue 27). Contacts and
-- participants are never deleted, so what these kept is only that a write names a row that
-- exists; their writers keep it now, each in its own statement: a chat's rows are written
-- together, items only for the contacts their statement updates, a participant only into a
-- contact that exists, tokens only for participants their statement locks
-- (test/references.test.ts).
ALTER TABLE items DROP CONSTRAINT IF EXISTS items_contact_id_fkey;
ALTER TABLE participants DROP CONSTRAINT IF EXISTS participants_contact_id_fkey;
ALTER TABLE connection_tokens DROP CONSTRAINT IF EXISTS connection_tokens_participant_id_fkey;
ALTER TABLE websocket_tokens DROP CONSTRAINT IF EXISTS websocket_tokens_participant_id_fkey;
