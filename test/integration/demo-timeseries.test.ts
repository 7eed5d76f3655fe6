/**
 * The demo timeseries snapshot against its contract (core/snapshot/timeseries-tables.ts) and its
 * configuration schemas (core/snapshot/timeseries-config.ts): a 7-day network generated twice
 * with one seed (byte-identical) and once with another (different values).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { generateTimeseriesDemo } from '../../build-scripts/demo/timeseries/generate.ts';
import { LIFECYCLE } from '../../build-scripts/demo/timeseries/network.ts';
import { LABELLED_TABLE_BY_PREFIX, TIMESERIES_CONFIG_DIR, TIMESERIES_TABLES } from '../../core/snapshot/timeseries-tables.ts';
import { keyColumns, type ColumnKind } from '../../core/snapshot/table-schema.ts';
import { TIMESERIES_CONFIG_FILES, TimeseriesConfigError, configReferenceProblems, parseTimeseriesConfig } from '../../core/snapshot/timeseries-config.ts';

const ROOT = resolve(import.meta.dirname, '..', '.tmp', `demo-timeseries-${process.pid}`);
const FROM = new Date('2024-01-01T00:00:00Z');
const DAYS = 7;
const FROM_MS = FROM.getTime();
const END_MS = FROM_MS + DAYS * 86_400_000;

async function generate(name: string, seed: number): Promise<string> {
  const dir = resolve(ROOT, name);
  await mkdir(dir, { recursive: true });
  await generateTimeseriesDemo({ from: FROM, days: DAYS, seed, outDir: dir, takenAt: new Date(END_MS), log: () => {} });
  return dir;
}

let dirA: string;
let dirB: string;
let dirC: string;
let instance: DuckDBInstance;
let db: DuckDBConnection;

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await db.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}
async function scalar(sql: string): Promise<unknown> {
  return Object.values((await rows(sql))[0] ?? {})[0];
}
const file = (dir: string, table: string) => `'${resolve(dir, `${table}.parquet`)}'`;
const T = (table: string) => file(dirA, table);

beforeAll(async () => {
  await rm(ROOT, { recursive: true, force: true });
  [dirA, dirB, dirC] = await Promise.all([generate('a', 1), generate('b', 1), generate('c', 2)]);
  instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  db = await instance.connect();
});

afterAll(async () => {
  db?.closeSync();
  instance?.closeSync();
  await rm(ROOT, { recursive: true, force: true });
});

const KIND_TYPES: Record<ColumnKind, RegExp> = {
  integer: /^(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?)$/,
  double: /^(DOUBLE|FLOAT)$/,
  text: /^VARCHAR$/,
  json: /^VARCHAR$/,
  boolean: /^BOOLEAN$/,
  timestamp: /^TIMESTAMP/,
};

describe('the table contract', () => {
  it('every table has exactly the contract columns, in order, with the right kinds', async () => {
    const files = (await readdir(dirA)).filter((f) => f.endsWith('.parquet')).sort();
    expect(files).toEqual(TIMESERIES_TABLES.map((t) => `${t.name}.parquet`).sort());
    for (const spec of TIMESERIES_TABLES) {
      const cols = await rows(`DESCRIBE SELECT * FROM ${T(spec.name)}`);
      expect(cols.map((c) => c.column_name), spec.name).toEqual(spec.columns.map((c) => c.name));
      spec.columns.forEach((c, i) => expect(String(cols[i]!.column_type), `${spec.name}.${c.name}`).toMatch(KIND_TYPES[c.kind]));
    }
  });

  it('non-null columns, keys, uniques, references, patterns and row rules hold', async () => {
    for (const spec of TIMESERIES_TABLES) {
      const t = T(spec.name);
      expect(Number(await scalar(`SELECT count(*) FROM ${t}`)), `${spec.name} is not empty`).toBeGreaterThan(0);
      for (const c of spec.columns) {
        if (!c.nullable) expect(Number(await scalar(`SELECT count(*) FROM ${t} WHERE "${c.name}" IS NULL`)), `${spec.name}.${c.name} nulls`).toBe(0);
        if (c.unique) expect(Number(await scalar(`SELECT count(*) - count(DISTINCT "${c.name}") FROM ${t}`)), `${spec.name}.${c.name} unique`).toBe(0);
        if (c.pattern) {
          const bad = await scalar(`SELECT count(*) FROM ${t} WHERE "${c.name}" IS NOT NULL AND NOT regexp_matches("${c.name}", '${c.pattern.replaceAll("'", "''")}')`);
          expect(Number(bad), `${spec.name}.${c.name} matches ${c.pattern}`).toBe(0);
        }
        if (c.references) {
          const [table, col] = c.references.split('.') as [string, string];
          const missing = await scalar(`SELECT count(*) FROM ${t} x WHERE x."${c.name}" IS NOT NULL AND x."${c.name}" NOT IN (SELECT "${col}" FROM ${T(table)})`);
          expect(Number(missing), `${spec.name}.${c.name} → ${c.references}`).toBe(0);
        }
      }
      const key = keyColumns(spec).map((c) => `"${c.name}"`).join(', ');
      expect(Number(await scalar(`SELECT count(*) - count(DISTINCT (${key})) FROM ${t}`)), `${spec.name} key (${key})`).toBe(0);
      for (const r of spec.rules ?? []) expect(Number(await scalar(`SELECT count(*) FROM ${t} WHERE NOT (${r.holds})`)), `${spec.name}: ${r.meaning}`).toBe(0);
    }
  });

  it('ids carry their type prefix', async () => {
    for (const [prefix, table] of Object.entries(LABELLED_TABLE_BY_PREFIX)) {
      const ids = (await rows(`SELECT id FROM ${T(table)}`)).map((r) => String(r.id));
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) expect(id.startsWith(`${prefix}_`), `${table}: ${id}`).toBe(true);
    }
  });

  it('every resource has en and de labels, and its label column is the en label', async () => {
    for (const table of Object.values(LABELLED_TABLE_BY_PREFIX)) {
      const bad = await rows(`SELECT r.id FROM ${T(table)} r
        LEFT JOIN ${T('labels')} en ON en.resource_id = r.id AND en.locale = 'en'
        LEFT JOIN ${T('labels')} de ON de.resource_id = r.id AND de.locale = 'de'
        WHERE en.label IS NULL OR de.label IS NULL OR en.label <> r.label`);
      expect(bad, table).toEqual([]);
    }
    const orphans = await rows(`SELECT resource_id FROM ${T('labels')} WHERE resource_id NOT IN (${Object.values(LABELLED_TABLE_BY_PREFIX).map((t) => `SELECT id FROM ${T(t)}`).join(' UNION ALL ')})`);
    expect(orphans).toEqual([]);
    expect(await scalar(`SELECT label FROM ${T('labels')} WHERE resource_id = 'phe_water_level' AND locale = 'de'`)).toBe('Wasserstand');
    expect(await scalar(`SELECT label FROM ${T('labels')} WHERE resource_id = 'sta_koeln' AND locale = 'en'`)).toBe('Cologne');
    expect(await scalar(`SELECT label FROM ${T('labels')} WHERE resource_id = 'sta_koeln' AND locale = 'de'`)).toBe('Köln');
  });

  it('a timeseries and all its collections belong to one service', async () => {
    const links: [string, string][] = [['category_id', 'categories'], ['offering_id', 'offerings'], ['feature_id', 'features'], ['procedure_id', 'procedures'], ['phenomenon_id', 'phenomena'], ['station_id', 'stations']];
    for (const [col, table] of links) {
      const bad = await scalar(`SELECT count(*) FROM ${T('timeseries')} ts JOIN ${T(table)} x ON x.id = ts.${col} WHERE x.service_id <> ts.service_id`);
      expect(Number(bad), col).toBe(0);
    }
  });
});

describe('the demo network', () => {
  it('has two services, about 100 stations with 1 to 4 timeseries each, at plausible positions', async () => {
    expect((await rows(`SELECT id FROM ${T('services')} ORDER BY id`)).map((r) => r.id)).toEqual(['srv_rivers', 'srv_weather']);
    const n = Number(await scalar(`SELECT count(*) FROM ${T('stations')}`));
    expect(n).toBeGreaterThanOrEqual(90);
    expect(n).toBeLessThanOrEqual(120);
    const counts = await rows(`SELECT min(n) mn, max(n) mx FROM (SELECT s.id, count(ts.id) n FROM ${T('stations')} s LEFT JOIN ${T('timeseries')} ts ON ts.station_id = s.id GROUP BY 1)`);
    expect(counts[0]).toEqual({ mn: 1n, mx: 4n });
    // Germany, the Netherlands and Belgium
    expect(Number(await scalar(`SELECT count(*) FROM ${T('stations')} WHERE NOT (longitude BETWEEN 2.5 AND 15.1 AND latitude BETWEEN 47.2 AND 55.1)`))).toBe(0);
    const koeln = (await rows(`SELECT longitude, latitude FROM ${T('stations')} WHERE id = 'sta_koeln_rhein'`))[0]!;
    expect(koeln.longitude as number).toBeCloseTo(6.96, 1);
    expect(koeln.latitude as number).toBeCloseTo(50.94, 1);
  });

  it('values are plausible for each phenomenon', async () => {
    const ranges: Record<string, [number, number]> = {
      phe_water_level: [0, 2000],
      phe_discharge: [0, 30000],
      phe_water_temperature: [0, 30],
      phe_air_temperature: [-40, 45],
      phe_relative_humidity: [0, 100],
      phe_precipitation: [0, 100],
      phe_pm10: [0, 600],
    };
    const stats = await rows(`SELECT phenomenon_id p, min(value) mn, max(value) mx, count(*) n, avg(CASE WHEN value = 0 THEN 1 ELSE 0 END) zero, count(DISTINCT value) distinct_values
      FROM ${T('observations')} o JOIN ${T('timeseries')} ts ON ts.id = o.timeseries_id GROUP BY 1`);
    expect(stats.map((s) => s.p).sort()).toEqual(Object.keys(ranges).sort());
    for (const s of stats) {
      const [lo, hi] = ranges[String(s.p)]!;
      expect(s.mn as number, `${s.p} min`).toBeGreaterThanOrEqual(lo);
      expect(s.mx as number, `${s.p} max`).toBeLessThanOrEqual(hi);
      expect(Number(s.distinct_values), `${s.p} varies`).toBeGreaterThan(5);
    }
    const precip = stats.find((s) => s.p === 'phe_precipitation')!;
    expect(precip.zero as number, 'precipitation is mostly zero').toBeGreaterThan(0.6);
    expect(precip.mx as number, 'but it rains somewhere').toBeGreaterThan(0.5);
  });

  it('values lie on the cadence grid: 10 minutes, hourly for precipitation and PM10, within the period, sorted', async () => {
    const bad = await scalar(`SELECT count(*) FROM ${T('observations')} o JOIN ${T('timeseries')} ts ON ts.id = o.timeseries_id
      WHERE (o.timestamp - ${FROM_MS}) % (CASE WHEN ts.phenomenon_id IN ('phe_precipitation', 'phe_pm10') THEN 3600000 ELSE 600000 END) <> 0
         OR o.timestamp < ${FROM_MS} OR o.timestamp >= ${END_MS}`);
    expect(Number(bad)).toBe(0);
    const unsorted = await scalar(`SELECT count(*) FROM (SELECT timeseries_id id, timestamp t,
        lag(timeseries_id) OVER (ORDER BY file_row_number) pid, lag(timestamp) OVER (ORDER BY file_row_number) pt
        FROM read_parquet(${T('observations')}, file_row_number = true)) WHERE pid > id OR (pid = id AND pt >= t)`);
    expect(Number(unsorted)).toBe(0);
  });

  it('has gaps (runs of missing instants), a few nulls, and series with a shorter life or no data', async () => {
    const gaps = await rows(`SELECT timeseries_id, max(d) longest FROM (SELECT timeseries_id, timestamp - lag(timestamp) OVER (PARTITION BY timeseries_id ORDER BY timestamp) d FROM ${T('observations')})
      GROUP BY 1 HAVING max(d) > 3600000`);
    expect(gaps.length, 'series with a gap longer than an hour').toBeGreaterThan(5);
    const nulls = Number(await scalar(`SELECT count(*) FROM ${T('observations')} WHERE value IS NULL`));
    const total = Number(await scalar(`SELECT count(*) FROM ${T('observations')}`));
    expect(nulls).toBeGreaterThan(0);
    expect(nulls / total).toBeLessThan(0.01);
    expect(total / (await rows(`SELECT 1 FROM ${T('timeseries')}`)).length).toBeGreaterThan(300);
    expect(Number(await scalar(`SELECT count(*) FROM ${T('observations')} WHERE timeseries_id = 'ts_brocken_relative_humidity'`))).toBe(0);
    // commissioned and taken out of service at fixed times after the start of the data
    const commissioned = FROM_MS + LIFECYCLE['ts_eindhoven_pm10']!.activeFromDays! * 86_400_000;
    const retired = FROM_MS + LIFECYCLE['ts_wittenberg_elbe_water_temperature']!.activeToDays! * 86_400_000;
    expect(retired).toBeLessThan(END_MS);
    expect(Number(await scalar(`SELECT min(timestamp) FROM ${T('observations')} WHERE timeseries_id = 'ts_eindhoven_pm10'`))).toBeGreaterThanOrEqual(commissioned);
    expect(Number(await scalar(`SELECT max(timestamp) FROM ${T('observations')} WHERE timeseries_id = 'ts_wittenberg_elbe_water_temperature'`))).toBeLessThan(retired);
  });

  it('every water level series has warning levels 1 to 3 with values from the first instant, rising with the level', async () => {
    const levels = Number(await scalar(`SELECT count(*) FROM ${T('timeseries')} WHERE phenomenon_id = 'phe_water_level'`));
    const refs = await rows(`SELECT r.timeseries_id, list(r.label ORDER BY r.label) labels FROM ${T('reference_values')} r GROUP BY 1`);
    expect(refs.length).toBe(levels);
    for (const r of refs) expect(r.labels).toEqual(['Warning level 1', 'Warning level 2', 'Warning level 3']);
    expect(await scalar(`SELECT label FROM ${T('labels')} WHERE resource_id = 'ref_koeln_rhein_ms2' AND locale = 'de'`)).toBe('Meldestufe 2');
    expect(Number(await scalar(`SELECT count(*) FROM ${T('reference_values')} r WHERE NOT EXISTS (SELECT 1 FROM ${T('reference_value_observations')} v WHERE v.reference_value_id = r.id AND v.timestamp = ${FROM_MS})`))).toBe(0);
    const notRising = await scalar(`WITH v AS (SELECT r.timeseries_id ts, r.label, v.timestamp, v.value FROM ${T('reference_values')} r JOIN ${T('reference_value_observations')} v ON v.reference_value_id = r.id)
      SELECT count(*) FROM v a JOIN v b ON a.ts = b.ts AND a.timestamp = b.timestamp AND a.label < b.label WHERE a.value >= b.value`);
    expect(Number(notRising)).toBe(0);
    expect(Number(await scalar(`SELECT count(DISTINCT reference_value_id) FROM ${T('reference_value_observations')} WHERE timestamp > ${FROM_MS}`)), 'some levels are revised').toBeGreaterThan(0);
  });

  it('is deterministic: the same seed gives the same bytes, another seed other values', async () => {
    const names = (await readdir(dirA)).filter((f) => f.endsWith('.parquet'));
    for (const f of names) expect(Buffer.compare(await readFile(resolve(dirA, f)), await readFile(resolve(dirB, f))), f).toBe(0);
    for (const f of Object.values(TIMESERIES_CONFIG_FILES)) {
      expect(await readFile(resolve(dirA, TIMESERIES_CONFIG_DIR, f), 'utf8')).toBe(await readFile(resolve(dirB, TIMESERIES_CONFIG_DIR, f), 'utf8'));
    }
    expect(Buffer.compare(await readFile(resolve(dirA, 'observations.parquet')), await readFile(resolve(dirC, 'observations.parquet')))).not.toBe(0);
    expect(Buffer.compare(await readFile(resolve(dirA, 'stations.parquet')), await readFile(resolve(dirC, 'stations.parquet'))), 'the network does not depend on the seed').toBe(0);
    expect(existsSync(resolve(dirA, '.timeseries-work')), 'work folder removed').toBe(false);
  });
});

describe('the configuration files', () => {
  async function configOf(dir: string): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const f of await readdir(resolve(dir, TIMESERIES_CONFIG_DIR))) out[`config/${f}`] = JSON.parse(await readFile(resolve(dir, TIMESERIES_CONFIG_DIR, f), 'utf8'));
    return out;
  }

  it('parse with the schemas and name only ids the tables hold', async () => {
    const files = await configOf(dirA);
    expect(Object.keys(files).sort()).toEqual(Object.values(TIMESERIES_CONFIG_FILES).map((f) => `config/${f}`).sort());
    const config = parseTimeseriesConfig(files);
    expect(config.maxTimespan).toBe('P1Y1D');
    expect(config.maxTimespanParts).toMatchObject({ years: 1, days: 1 });
    const ids = async (table: string) => new Set((await rows(`SELECT id FROM ${T(table)}`)).map((r) => String(r.id)));
    expect(configReferenceProblems(config, { phenomena: await ids('phenomena'), timeseries: await ids('timeseries'), referenceValues: await ids('reference_values') })).toEqual([]);

    const level = config.statusIntervals.phenomenon['phe_water_level']!;
    expect(level.map((i) => i.color)).toEqual(['#00a000', '#ffd700', '#ff0000']);
    expect(level.at(-1)!.upper).toBeUndefined();
    for (const i of level) expect(typeof i.lower).toBe('string');
    const koeln = config.statusIntervals.timeseries['ts_koeln_rhein_water_level']!;
    expect(koeln.map((i) => i.name)).toEqual(['below warning level 1', 'warning level 1', 'warning level 2', 'warning level 3']);
    expect(config.renderingHints.phenomenon['phe_precipitation']).toMatchObject({ chartType: 'bar', properties: { interval: 'byHour', color: '#0000ff' } });
    expect(config.renderingHints.phenomenon['phe_air_temperature']).toMatchObject({ chartType: 'line', properties: { color: '#ff0000' } });
    expect(Object.keys(config.renderingHints.timeseries['ts_koeln_rhein_water_level']!.referenceValueStyleProperties)).toHaveLength(3);
    expect(config.prerendering.general).toMatchObject({ width: 800, height: 500, language: 'de', grid: true });
    expect(config.prerendering.timeseries.find((t) => t.chartQualifier === 'with_legend')!.chart.legend).toBe(true);
    const koelnTask = config.prerendering.timeseries.find((t) => t.id === 'ts_koeln_rhein_water_level' && !t.chartQualifier)!;
    expect(Object.keys(koelnTask.style.referenceValueStyleProperties).sort()).toEqual(['ref_koeln_rhein_ms1', 'ref_koeln_rhein_ms2', 'ref_koeln_rhein_ms3']);
    expect(koelnTask.style.properties).not.toHaveProperty('referenceValueStyleProperties');
    expect(config.prerendering.phenomenon.length + config.prerendering.timeseries.length).toBeGreaterThan(2);
  });

  it('report problems naming the file and the field', () => {
    const bad = {
      'web_config-rendering-hints.json': { phenomenonStyles: { phe_x: { style: { chartType: 'line', properties: { color: 'red' } } } } },
      'web_config-status-intervals.json': { phenomenonIntervals: { phe_x: { statusIntervals: { a: { lower: 'low', color: '#00ff00' } } } } },
      'web_config-general.json': { requestIntervalRestriction: 'one year' },
      'web_config-task-prerendering.json': { timeseriesStyles: [{ id: '16', interval: ['lastYear'], style: { chartType: 'bar' } }] },
    };
    let err: unknown;
    try {
      parseTimeseriesConfig(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TimeseriesConfigError);
    const problems = (err as TimeseriesConfigError).problems.join('\n');
    expect(problems).toMatch(/config\/web_config-rendering-hints\.json: phenomenonStyles\.phe_x\.style\.properties\.color: expected a six-digit hex colour/);
    expect(problems).toMatch(/config\/web_config-status-intervals\.json: phenomenonIntervals\.phe_x\.statusIntervals\.a\.lower: expected a number/);
    expect(problems).toMatch(/config\/web_config-general\.json: requestIntervalRestriction: expected an ISO 8601 duration/);
    expect(problems).toMatch(/config\/web_config-task-prerendering\.json: timeseriesStyles\[0\]\.id: expected a timeseries id/);
    expect(problems).toMatch(/config\/web_config-task-prerendering\.json: timeseriesStyles\[0\]\.interval\[0\]/);
  });

  const REFERENCE = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'reference', '52north', 'config');
  it.skipIf(!existsSync(REFERENCE))("accept 52°North's sample status intervals, rendering hints and general settings", async () => {
    const read = async (f: string) => JSON.parse(await readFile(resolve(REFERENCE, f), 'utf8'));
    const c = parseTimeseriesConfig({
      'web_config-status-intervals.json': await read('web_config-status-intervals.json'),
      'web_config-rendering-hints.json': await read('web_config-rendering-hints.json'),
      'web_config-general.json': await read('web_config-general.json'),
    });
    expect(c.statusIntervals.phenomenon['phe_1965ee24af8af96270002b4a434a4250']![0]).toEqual({ name: 'over 20', lower: '20', color: '#FF0000' });
    expect(c.statusIntervals.timeseries['ts_123']).toEqual([]);
    expect(c.renderingHints.timeseries['ts_20775c426a66cbd01ca662fcdfd28d44']!.chartType).toBe('bar');
    expect(c.maxTimespan).toBe('P1Y1D');
  });

  it('treat missing files as nothing configured, and accept numbers as bounds and the 52°North aliases', () => {
    const empty = parseTimeseriesConfig({});
    expect(empty.maxTimespan).toBe('P1Y1D');
    expect(empty.statusIntervals).toEqual({ phenomenon: {}, timeseries: {} });
    const c = parseTimeseriesConfig({
      'web_config-status-intervals.json': { datasetIntervals: { ts_a: { statusIntervals: { '>20': { lower: 20.5, color: '#FF0000' }, '0-20': { lower: 0, upper: 20.5, color: '#0000FF' } } } } },
      'web_config-rendering-hints.json': { seriesStyles: { ts_a: { style: { chartType: 'bar', properties: { interval: 'byDay', width: 0.8, color: '#0000ff', referenceValueStyleProperties: { ref_1: { chartType: 'line', properties: { color: '#ff0000' } } } } } } } },
    });
    expect(c.statusIntervals.timeseries['ts_a']).toEqual([
      { name: '>20', lower: '20.5', color: '#FF0000' },
      { name: '0-20', lower: '0', upper: '20.5', color: '#0000FF' },
    ]);
    expect(c.renderingHints.timeseries['ts_a']).toEqual({
      chartType: 'bar',
      properties: { interval: 'byDay', width: 0.8, color: '#0000ff' },
      referenceValueStyleProperties: { ref_1: { chartType: 'line', properties: { color: '#ff0000' } } },
    });
  });
});
