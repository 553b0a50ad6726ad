-- Telemetry summarised per series as it arrives: /metrics and the series cap read these, so a
-- scrape costs the series, not every row ever received; received rows and series that have gone
-- quiet expire after TELEMETRY_RETENTION_DAYS.
CREATE TABLE telemetry_metric_series (
  namespace text NOT NULL,
  metric_name text NOT NULL,
  unit text NOT NULL,
  dimensions text NOT NULL,
  count bigint NOT NULL,
  sum double precision NOT NULL,
  last_received_at timestamptz NOT NULL,
  PRIMARY KEY (namespace, metric_name, unit, dimensions)
);
INSERT INTO telemetry_metric_series
  SELECT namespace, metric_name, unit, dimensions, count(*), sum(value), max(received_at)
  FROM telemetry_metrics
  WHERE value BETWEEN -1e9 AND 1e9 AND length(dimensions) <= 512
  GROUP BY namespace, metric_name, unit, dimensions;

CREATE TABLE telemetry_workflow_series (
  workflow_type text NOT NULL,
  event text NOT NULL,
  count bigint NOT NULL,
  last_received_at timestamptz NOT NULL,
  PRIMARY KEY (workflow_type, event)
);
INSERT INTO telemetry_workflow_series
  SELECT workflow_type, event, count(*), max(received_at)
  FROM telemetry_workflow_events GROUP BY workflow_type, event;

DROP INDEX telemetry_metrics_series;
CREATE INDEX telemetry_metrics_received ON telemetry_metrics (received_at);
CREATE INDEX telemetry_workflow_events_received ON telemetry_workflow_events (received_at);
CREATE INDEX telemetry_metric_series_received ON telemetry_metric_series (last_received_at);
CREATE INDEX telemetry_workflow_series_received ON telemetry_workflow_series (last_received_at);
