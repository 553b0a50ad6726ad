-- Client telemetry (docs/protocol.md §8.4): every metric and workflow event received, summarised at /metrics.
CREATE TABLE telemetry_metrics (
  id bigserial PRIMARY KEY,
  namespace text NOT NULL,
  metric_name text NOT NULL,
  unit text NOT NULL,
  value double precision NOT NULL,
  metric_time timestamptz NOT NULL,
  -- Dimensions and optional dimensions as canonical JSON: [[name, value], ...] sorted by name.
  dimensions text NOT NULL,
  received_at timestamptz NOT NULL
);
CREATE INDEX telemetry_metrics_series ON telemetry_metrics (namespace, metric_name, unit, dimensions);

CREATE TABLE telemetry_workflow_events (
  id bigserial PRIMARY KEY,
  workflow_type text NOT NULL,
  event text NOT NULL,
  instance_id text,
  app_name text,
  event_time timestamptz NOT NULL,
  data jsonb NOT NULL,
  received_at timestamptz NOT NULL
);
