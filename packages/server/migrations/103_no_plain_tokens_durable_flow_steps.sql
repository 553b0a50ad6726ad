-- No token in plain text: the advisor's participant token is recomputed from its participant id
-- (src/agents/advisor-tokens.ts); the participants table keeps only its hash, like every token.
-- Chats accepted before this migration keep their random token, which exists nowhere any more:
-- a console that reloads cannot reopen them (the advisor can still end them).
ALTER TABLE agent_contacts DROP COLUMN participant_token;

-- A flow step is committed with what it has to do: the effects (messages, attributes, routing)
-- are saved in the same write as the new position, performed with idempotent ClientTokens and
-- removed once performed. A step cut short (a crash, a restart) is performed again, never lost.
-- JSON array of {"key": "<version>.<index>", "effect": {...}}, oldest first.
ALTER TABLE flow_positions ADD COLUMN pending_effects jsonb NOT NULL DEFAULT '[]'::jsonb;
CREATE INDEX flow_positions_pending ON flow_positions (contact_id)
  WHERE pending_effects <> '[]'::jsonb;
