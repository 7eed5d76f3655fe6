/**
 * The example queries of the "Query in your browser" page (/query/), made at build time from the build's data:
 * a radar and a day that have files, a series. The browser test runs each and checks it against the API.
 */
import { downloadIndex } from './downloads.ts';
import { buildInfo } from './data.ts';
import { radars } from './radars.ts';
import { allSeries } from './timeseries.ts';

export interface QueryExample {
  id: string;
  title: string;
  sql: string;
  /** What the example is about, for the test to ask the API the same: radar code and day, or series id. */
  params: Record<string, string>;
}

const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** The day before the snapshot was taken (its last full day), `YYYY-MM-DD`. */
function lastDay(): string {
  const t = Date.parse(buildInfo().snapshot.taken_at);
  return new Date(t - 86_400_000).toISOString().slice(0, 10);
}

export function queryExamples(): QueryExample[] {
  const tables = new Set((downloadIndex()?.tables ?? []).filter((t) => t.files.length > 0).map((t) => t.name));
  const out: QueryExample[] = [];
  const radar = radars().find((r) => r.status === 'operational') ?? radars()[0];
  if (tables.has('files') && radar) {
    const day = lastDay();
    out.push({
      id: 'radar-day',
      title: `Files of ${radar.code} on ${day}`,
      params: { radar: radar.code, day },
      sql: `SELECT id, filename, file_type, file_start_datetime, file_end_datetime, file_size
FROM files
WHERE radar_code = ${quote(radar.code)}
  AND file_end_datetime >= TIMESTAMP '${day} 00:00:00'
  AND file_start_datetime <= TIMESTAMP '${day} 23:59:59'
ORDER BY id`,
    });
  }
  if (tables.has('transferred')) {
    out.push({
      id: 'alarms',
      title: 'Alarms by category',
      params: {},
      sql: `SELECT transferred_file_status AS category, count(*) AS alarms, count(DISTINCT id) AS files
FROM transferred
WHERE transferred_file_status IS NOT NULL
GROUP BY category
ORDER BY category`,
    });
  }
  const series = allSeries()[0];
  if (tables.has('observations') && series) {
    out.push({
      id: 'monthly-means',
      title: `Monthly means of ${series.label}`,
      params: { series: series.id },
      // grouped and ordered by position: the observations' view has a `month` column of its own (the hive folder
      // month=M), which `GROUP BY month` would take instead of this alias
      sql: `SELECT CAST(date_trunc('month', "timestamp") AS DATE) AS month, avg("value") AS mean, count("value") AS "values"
FROM observations
WHERE timeseries_id = ${quote(series.id)}
GROUP BY 1
ORDER BY 1`,
    });
  }
  return out;
}
