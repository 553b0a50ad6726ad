-- An advisor can be disabled (the advisor CLI, production mode's demo advisor): a disabled
-- advisor cannot sign in and their sessions no longer authenticate.
ALTER TABLE advisors ADD COLUMN disabled boolean NOT NULL DEFAULT false;
