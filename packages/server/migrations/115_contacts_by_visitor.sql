-- A visitor's earlier conversations (issue 60, the visitor panel): their contacts by the verified
-- jwt subject, newest first, without reading every contact.
CREATE INDEX contacts_visitor ON contacts (visitor_subject, instance_id, created_at DESC)
  WHERE visitor_subject IS NOT NULL;
