/**
 * The Atom feeds of a build (core/feeds/atom.ts, docs/changes.md), from its kept snapshot history
 * (snapshot-history.ts): per radar the files each snapshot brought (one entry per radar and snapshot, with
 * counts and links), the network's new alarm instances (one entry each), and per timeseries and per station
 * the status changes (a value entering another status interval). Written through the tree writer, so that an
 * unchanged feed is not written again. Returns the number of feeds.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { all, run, sqlString } from '../../lib/duckdb.ts';
import { ALARMS_FEED, atomXml, radarFeedPath, stationFeedPath, timeseriesFeedPath, urn, type AtomEntry } from '../../core/feeds/atom.ts';
import { RADAR_PREFIX } from '../../core/radar/routes.ts';
import { TIMESERIES_PREFIX } from '../../core/timeseries/routes.ts';
import { RADAR_DB_FILE } from '../../lib/radar-catalogue.ts';
import { TIMESERIES_DB_FILE } from '../../lib/timeseries-store.ts';
import { ALARM_CHANGES_FILE, HISTORY_DIR, RADAR_CHANGES_FILE, STATUS_CHANGES_FILE, type SnapshotsDocument } from './snapshot-history.ts';
import type { TreeWriter } from './tree-writer.ts';

const iso = (ms: unknown) => new Date(Number(ms)).toISOString();
const day = (ms: unknown) => iso(ms).slice(0, 10);
const q = encodeURIComponent;

async function withDb<T>(conn: DuckDBConnection, file: string, alias: string, fn: () => Promise<T>): Promise<T | undefined> {
  if (!existsSync(file)) return undefined;
  await run(conn, `ATTACH ${sqlString(file)} AS ${alias} (READ_ONLY)`);
  try {
    return await fn();
  } finally {
    await run(conn, `DETACH ${alias}`);
  }
}

export async function writeFeeds(conn: DuckDBConnection, writer: TreeWriter, folder: string, history: SnapshotsDocument): Promise<number> {
  const newest = history.snapshots[0]!.taken_at;
  const baseOf = new Map(history.snapshots.map((s) => [s.name, s.base]));
  const parquet = (file: string) => `read_parquet(${sqlString(join(folder, HISTORY_DIR, file))})`;
  let feeds = 0;
  await withDb(conn, join(folder, 'data', RADAR_DB_FILE), 'feed_radar', async () => {
    const radars = await all(conn, 'SELECT DISTINCT radar_code, radar_name FROM feed_radar.main.radars_x ORDER BY radar_code');
    const rows = await all(
      conn,
      `SELECT radar_code, snapshot, epoch_ms(taken_at) AS t, count(*) FILTER (change = 'added') AS added, count(*) FILTER (change = 'changed') AS changed,
         count(*) FILTER (change = 'removed') AS removed, epoch_ms(min(start_time)) AS first, epoch_ms(max(end_time)) AS last
       FROM ${parquet(RADAR_CHANGES_FILE)} WHERE res = 'files' GROUP BY ALL ORDER BY t DESC, snapshot`,
    );
    const byRadar = new Map<string, AtomEntry[]>();
    for (const r of rows) {
      const code = r['radar_code'] as string;
      const snapshot = r['snapshot'] as string;
      const [added, changed, removed] = [Number(r['added']), Number(r['changed']), Number(r['removed'])];
      const base = baseOf.get(snapshot);
      const parts = [`${added} new file${added === 1 ? '' : 's'}`, ...(changed ? [`${changed} changed`] : []), ...(removed ? [`${removed} removed`] : [])];
      const span = `${iso(r['first']).replace('.000Z', 'Z')}/${iso(r['last']).replace('.000Z', 'Z')}`;
      const entry: AtomEntry = {
        id: urn('radar', code, snapshot),
        title: `${code}: ${parts.join(', ')} on ${day(r['t'])}`,
        updated: iso(r['t']),
        links: [
          ...(base ? [{ rel: 'alternate' as const, type: 'application/json', href: `${RADAR_PREFIX}/changes?since=${q(base)}&radar_code=${code}&expanded=true`, title: `Changes of ${code} from snapshot ${base} on` }] : []),
          { rel: 'related', type: 'application/json', href: `${RADAR_PREFIX}/files?radar_code=${code}&timespan=${q(span)}`, title: 'The files of the interval these cover' },
          ...(base ? [{ rel: 'related' as const, type: 'text/plain', href: `${RADAR_PREFIX}/changes?since=${q(base)}&radar_code=${code}&contentType=checksumReport`, title: 'New and changed files as a checksum report' }] : []),
        ],
        summary: `Snapshot ${snapshot} (taken at ${iso(r['t'])}) brought radar ${code} ${parts.join(', ')}, covering ${span}.`,
      };
      (byRadar.get(code) ?? byRadar.set(code, []).get(code)!).push(entry);
    }
    for (const r of radars) {
      const code = r['radar_code'] as string;
      const path = radarFeedPath(code);
      if (!path) continue;
      writer.write(path, atomXml({
        id: urn('feed', 'radar', code),
        title: `New files of radar ${code} (${r['radar_name'] as string})`,
        subtitle: `One entry per snapshot (a day) that brought files of ${code}: counts and links. The last ${history.keep} snapshots.`,
        self: path,
        page: `/browse/radars/${code}/`,
        updated: newest,
        entries: byRadar.get(code) ?? [],
      }));
      feeds++;
    }
    const alarms = await all(conn, `SELECT snapshot, epoch_ms(taken_at) AS t, id, transfer_id, category, radar_code, filename, file_path, epoch_ms(transfer_start) AS start FROM ${parquet(ALARM_CHANGES_FILE)} ORDER BY t DESC, id, transfer_id`);
    writer.write(ALARMS_FEED, atomXml({
      id: urn('feed', 'alarms'),
      title: 'New alarms of the radar network',
      subtitle: `One entry per alarm instance (a transferred file with an alarm category) that a snapshot brought. The last ${history.keep} snapshots.`,
      self: ALARMS_FEED,
      page: '/browse/alarms/',
      updated: newest,
      entries: alarms.map((a) => ({
        id: urn('alarm', String(a['id']), String(a['transfer_id']), a['category'] as string),
        title: `${a['category'] as string}: ${a['filename'] as string} (${a['radar_code'] as string})`,
        updated: iso(a['t']),
        links: [
          { rel: 'alternate', type: 'application/json', href: `${RADAR_PREFIX}/transferred/files/alarm/${a['id']}`, title: 'Every alarm instance of this file' },
          { rel: 'related', type: 'application/json', href: `${RADAR_PREFIX}/transfers/${a['transfer_id']}`, title: 'The transfer' },
        ],
        summary: `Alarm category ${a['category'] as string} on ${a['file_path'] as string} of radar ${a['radar_code'] as string}, transfer ${a['transfer_id']} started ${a['start'] === null ? 'at an unknown time' : iso(a['start'])}; in snapshot ${a['snapshot'] as string}.`,
      })),
    }));
    feeds++;
  });
  await withDb(conn, join(folder, 'data', TIMESERIES_DB_FILE), 'feed_ts', async () => {
    const series = await all(conn, 'SELECT t.id, t.label, t.uom, s.id AS station_id, s.label AS station FROM feed_ts.main.timeseries t JOIN feed_ts.main.stations s ON s.id = t.station_id ORDER BY t.id');
    const changes = await all(conn, `SELECT snapshot, timeseries_id, "timestamp", "value", from_level, to_level FROM ${parquet(STATUS_CHANGES_FILE)} ORDER BY "timestamp" DESC, timeseries_id`);
    const info = new Map(series.map((s) => [s['id'] as string, s]));
    const entry = (c: Record<string, unknown>): AtomEntry => {
      const s = info.get(c['timeseries_id'] as string)!;
      const [from, to] = [c['from_level'] as string | null, c['to_level'] as string | null];
      const what = to === null ? `left ${from ?? 'its level'}` : from === null ? `entered ${to}` : `entered ${to} (left ${from})`;
      const value = `${Number(c['value'])} ${(s['uom'] as string | null) ?? ''}`.trim();
      const id = c['timeseries_id'] as string;
      const t = iso(c['timestamp']);
      return {
        id: urn('status', id, t),
        title: `${s['label'] as string}: ${what} at ${t} (${value})`,
        updated: t,
        links: [
          { rel: 'alternate', type: 'text/html', href: `/browse/timeseries/${q(id)}/` },
          { rel: 'related', type: 'application/json', href: `${TIMESERIES_PREFIX}/timeseries/${q(id)}/getData?timespan=${q(`PT6H/${t}`)}`, title: 'The values of the six hours before' },
        ],
        summary: `${s['label'] as string} at ${s['station'] as string}: the value ${value} at ${t} ${what}; published in snapshot ${c['snapshot'] as string}.`,
      };
    };
    const bySeries = new Map<string, AtomEntry[]>();
    const byStation = new Map<string, AtomEntry[]>();
    for (const c of changes) {
      const s = info.get(c['timeseries_id'] as string);
      if (!s) continue;
      const e = entry(c);
      (bySeries.get(s['id'] as string) ?? bySeries.set(s['id'] as string, []).get(s['id'] as string)!).push(e);
      (byStation.get(s['station_id'] as string) ?? byStation.set(s['station_id'] as string, []).get(s['station_id'] as string)!).push(e);
    }
    const stations = new Map<string, string>();
    for (const s of series) {
      stations.set(s['station_id'] as string, s['station'] as string);
      const path = timeseriesFeedPath(s['id'] as string);
      if (!path) continue;
      writer.write(path, atomXml({
        id: urn('feed', 'timeseries', s['id'] as string),
        title: `Status changes of ${s['label'] as string}`,
        subtitle: `Each value that entered another status interval (warning level). The last ${history.keep} snapshots.`,
        self: path,
        page: `/browse/timeseries/${q(s['id'] as string)}/`,
        updated: newest,
        entries: bySeries.get(s['id'] as string) ?? [],
      }));
      feeds++;
    }
    for (const [id, label] of stations) {
      const path = stationFeedPath(id);
      if (!path) continue;
      writer.write(path, atomXml({
        id: urn('feed', 'station', id),
        title: `Status changes at ${label}`,
        subtitle: `Each value of a timeseries of the station that entered another status interval. The last ${history.keep} snapshots.`,
        self: path,
        page: `/browse/stations/#${q(id)}`,
        updated: newest,
        entries: byStation.get(id) ?? [],
      }));
      feeds++;
    }
  });
  return feeds;
}
