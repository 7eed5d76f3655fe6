/**
 * The operators page's Prometheus examples: a scrape configuration and three alert rules. Kept here, not in the
 * page, so test/integration/health-metrics.test.ts checks that every metric they name is one /metrics answers.
 */

export const SCRAPE_CONFIG = `# prometheus.yml
scrape_configs:
  - job_name: snapcat
    metrics_path: /metrics
    scrape_interval: 30s
    static_configs:
      # the endpoint itself (npm run serve), or nginx in front of it: nginx passes /metrics on
      - targets: ['127.0.0.1:8080']
rule_files:
  - snapcat-alerts.yml`;

export const ALERT_RULES = `# snapcat-alerts.yml
groups:
  - name: snapcat
    rules:
      # No new snapshot for two days: the daily export or build has stopped (a failed build keeps the last
      # good one serving, so nothing else shows it).
      - alert: SnapcatSnapshotStale
        expr: snapcat_snapshot_age_seconds > 2 * 86400
        for: 1h
        labels: { severity: warning }
        annotations:
          summary: "snapcat serves a snapshot {{ $value | humanizeDuration }} old"

      # Requests answered 503 at once because a gate's waiting line is full (DuckDB connections, bulk answers,
      # chart rendering): the endpoint needs more processes (--workers), or a client is hammering it.
      - alert: SnapcatRefusingRequests
        expr: sum by (gate) (rate(snapcat_admission_refused_total[5m])) > 0.1
        for: 10m
        labels: { severity: warning }
        annotations:
          summary: "snapcat refuses {{ $value | humanize }} requests/s at the {{ $labels.gate }} gate"

      # The API answers slowly: 95th percentile over 2 s for 15 minutes (a tree file takes about a millisecond,
      # a day's live query a few).
      - alert: SnapcatSlowAnswers
        expr: |
          histogram_quantile(0.95, sum by (le, family) (
            rate(snapcat_http_request_duration_seconds_bucket{family=~"radar|timeseries"}[5m])
          )) > 2
        for: 15m
        labels: { severity: warning }
        annotations:
          summary: "snapcat {{ $labels.family }} answers take {{ $value | humanize }} s at the 95th percentile"`;
