-- GetTranscript folds each message's receipts into its MessageMetadata: find a contact's
-- receipt (MESSAGEMETADATA) items by the message they acknowledge.
CREATE INDEX items_receipts ON items (contact_id, ((item -> 'MessageMetadata') ->> 'MessageId'))
  WHERE item ->> 'Type' = 'MESSAGEMETADATA';
