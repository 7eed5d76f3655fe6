/**
 * Small tables answered from memory give the bytes the SQL query gives, for any selection: bbox (also across
 * the antimeridian, and with edges on a radar's own position), timespan (with bounds on a record's own time),
 * radar_code, id, in every format and view, on the demo catalogue.
 */
import { join } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { RADAR_DB_FILE, readCatalogueFacts } from '../../lib/radar-catalogue.ts';
import { bodyFrame } from '../../core/radar/bodies.ts';
import { recordQuery, type CatalogueFacts, type Selection } from '../../core/radar/queries.ts';
import { csvHeader, type RecordFormat } from '../../core/radar/record-sql.ts';
import { residentBody, residentCanAnswer, residentRows, residentVariant, type ResidentTable } from '../../core/radar/resident.ts';
import { viewFields, type ResourceName } from '../../core/radar/resources.ts';
import { RADAR_ROUTES, type RadarRoute } from '../../core/radar/routes.ts';
import { openDuckDB, streamJoinedBytes } from '../../lib/duckdb.ts';
import { loadResidentTables } from '../../server/resident-tables.ts';
import { fc } from '../helpers/fuzz.ts';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
let facts: CatalogueFacts;
let tables: Partial<Record<ResourceName, ResidentTable>>;

beforeAll(async () => {
  instance = await openDuckDB({ path: join(inject('demoBuild'), 'data', RADAR_DB_FILE), readOnly: true, threads: 1 });
  conn = await instance.connect();
  facts = await readCatalogueFacts(conn);
  tables = await loadResidentTables(conn, facts);
});
afterAll(() => {
  conn.closeSync();
  instance.closeSync();
});

interface Ask {
  route: RadarRoute;
  format: RecordFormat;
  expanded: boolean;
  selection: Selection;
  id?: bigint;
}

function frameOf(a: Ask) {
  const header = a.format === 'csv' ? csvHeader(viewFields(tablesOf(a).resource, a.expanded), a.selection.delimiter) : undefined;
  return bodyFrame(a.format, a.route.shape, header);
}
const tablesOf = (a: Ask) => tables[a.route.resource!]!;

async function bySql(a: Ask): Promise<string> {
  const frame = frameOf(a);
  const q = recordQuery({ route: a.route, format: a.format, expanded: a.expanded, selection: a.selection, ...(a.id === undefined ? {} : { id: a.id }) }, facts);
  let body = frame.open;
  let wrote = false;
  for await (const b of streamJoinedBytes(conn, q, frame.separator, frame.terminator)) {
    if (b.bytes.length === 0) continue;
    body += (wrote ? frame.separator : '') + b.bytes.toString('utf8');
    wrote = true;
  }
  return body + frame.close;
}

function fromMemory(a: Ask): string {
  const t = tablesOf(a);
  const rows = residentRows(t, a.selection, a.id, facts.maxDurationMs[t.resource.name] ?? 0);
  return residentBody(t.texts[residentVariant(a.format, a.expanded)]!, rows, frameOf(a)).toString('utf8');
}

describe('resident tables', () => {
  test('the small tables are resident, the big ones are not', () => {
    expect(Object.keys(tables).sort()).toEqual(expect.arrayContaining(['radars', 'institutes', 'countries', 'transfer_methods']));
    for (const big of ['files', 'transferred', 'transfers'] as const) expect(tables[big]).toBeUndefined();
    expect(tables.radars!.columns.id.length).toBeGreaterThan(10);
  });

  test('the same bytes as SQL for any selection', async () => {
    const radars = tables.radars!;
    const lats = radars.columns.latitude!.filter((x): x is number => x !== null);
    const lons = radars.columns.longitude!.filter((x): x is number => x !== null);
    const times = radars.columns.timeStart!.filter((x): x is number => x !== null).map((us) => Math.floor(us / 1000));
    const codes = radars.columns.radarCode!.filter((x): x is string => x !== null);
    const ids = [...Object.values(tables).flatMap((t) => t.columns.id.slice(0, 3)), 999_999n];
    const routes = RADAR_ROUTES.filter((r) => r.resource !== undefined && tables[r.resource] && (r.shape === 'collection' || r.shape === 'one'));
    const coord = (near: number[], lo: number, hi: number) => fc.oneof(fc.constantFrom(...near), fc.double({ min: lo, max: hi, noNaN: true }));
    const bbox = fc.record({ minX: coord(lons, -180, 180), minY: coord(lats, -90, 90), maxX: coord(lons, -180, 180), maxY: coord(lats, -90, 90) }).map((b) => ({ ...b, minY: Math.min(b.minY, b.maxY), maxY: Math.max(b.minY, b.maxY) }));
    const instant = fc.oneof(fc.constantFrom(...times), fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2030, 0, 1) }));
    const timespan = fc.tuple(instant, instant).map(([x, y]) => ({ start: Math.min(x, y), end: Math.max(x, y) }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom<RecordFormat>('json', 'csv', 'checksum'),
        fc.boolean(),
        fc.option(bbox, { nil: undefined }),
        fc.option(timespan, { nil: undefined }),
        fc.option(fc.oneof(fc.constantFrom(...codes), fc.constant('zzz')), { nil: undefined }),
        fc.constantFrom(...ids),
        async (route, format, expanded, bb, ts, code, id) => {
          const selection: Selection = { bbox: bb, timespan: ts, radarCode: code, distinct: false, delimiter: ',' };
          const a: Ask = { route, format, expanded, selection, ...(route.shape === 'one' ? { id } : {}) };
          if (!residentCanAnswer(tablesOf(a), route, format, expanded, selection)) return;
          expect(fromMemory(a)).toBe(await bySql(a));
        },
      ),
      { numRuns: 400 },
    );
  });

  test('a delimiter other than a comma, and routes with a condition, go to SQL', () => {
    const radarsRoute = RADAR_ROUTES.find((r) => r.path === '/radars')!;
    const sel: Selection = { bbox: undefined, timespan: undefined, radarCode: undefined, distinct: false, delimiter: ';' };
    expect(residentCanAnswer(tables.radars, radarsRoute, 'csv', false, sel)).toBe(false);
    expect(residentCanAnswer(tables.radars, radarsRoute, 'csv', false, { ...sel, delimiter: ',' })).toBe(true);
    expect(residentCanAnswer(tables.files, RADAR_ROUTES.find((r) => r.path === '/files')!, 'json', false, sel)).toBe(false);
  });
});
