-- Expired tokens are swept on every insert; index their expiry.
CREATE INDEX connection_tokens_expiry ON connection_tokens (expires_at);
CREATE INDEX websocket_tokens_expiry ON websocket_tokens (expires_at);
CREATE INDEX idempotency_created ON idempotency (created_at);
