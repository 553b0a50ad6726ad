-- Where each contact attribute came from (issue 57): "jwt" (the verified visitor jwt), "page"
-- (the page's allow-listed start-chat Attributes), "report" (the order-number report), "flow"
-- (the contact flow's saved answers). Only "jwt" is verified.
ALTER TABLE contacts ADD COLUMN attribute_sources jsonb NOT NULL DEFAULT '{}'::jsonb;
