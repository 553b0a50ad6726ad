-- A chat lasts ChatDurationInMinutes (StartChatContact: 60 minutes to 7 days, default 25 hours):
-- when expires_at passes, the contact centre ends it.
ALTER TABLE contacts ADD COLUMN expires_at timestamptz;
CREATE INDEX contacts_expiry ON contacts (expires_at) WHERE status = 'active';
