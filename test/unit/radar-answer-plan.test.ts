/**
 * answerPlan (core/radar/answer-plan.ts): what answers a radar request, decided once for the endpoint, the nginx
 * rules and the tests: the tree's file for a parameter-free request in a variant the tree holds, a page or the
 * index made from the route, memory for a small table, else the record query, whole or streamed, in the bulk
 * lane or not.
 */
import { describe, expect, test } from 'vitest';
import { answerPlan, chooseFormat, STATIC_HOST, type PlanFacts, type PlanRequest } from '../../core/radar/answer-plan.ts';
import { parseRadarParams } from '../../core/radar/params.ts';
import type { ResidentTable } from '../../core/radar/resident.ts';
import { RESOURCES } from '../../core/radar/resources.ts';
import { BAS_PREFIX, RADAR_PREFIX, RADAR_ROUTES } from '../../core/radar/routes.ts';
import { HttpError } from '../../core/http/errors.ts';
import { WHOLE_MAX_ROWS } from '../../core/radar/queries.ts';

const route = (path: string) => RADAR_ROUTES.find((r) => r.path === path)!;
const params = (q = '') => parseRadarParams(new URLSearchParams(q));
const ask = (path: string, format: PlanRequest['format'] = 'json', id?: bigint, prefix: PlanRequest['prefix'] = RADAR_PREFIX): PlanRequest => ({ prefix, route: route(path), id, format });

/** A resident radar table of two rows (sas, pgr), texts in simple JSON only. */
const radars: ResidentTable = {
  resource: RESOURCES.radars,
  columns: { id: [1n, 2n], latitude: [52.16, 62.0], longitude: [-106.53, -145.0], radarCode: ['sas', 'pgr'], timeStart: [0, 0] },
  texts: { json: [Buffer.from('{"id":1}'), Buffer.from('{"id":2}')] },
};
const LIVE: PlanFacts = { tree: true, catalogue: { maxDurationMs: { files: 7_200_000 } }, resident: { radars } };

describe('served from the tree', () => {
  test.each([
    ['/files', 'json', '', 'radarnet/mirror/v3/files.json'],
    ['/files', 'json', 'expanded=true', 'radarnet/mirror/v3/files.expanded.json'],
    ['/files', 'csv', 'expanded=TRUE&unknown=1', 'radarnet/mirror/v3/files.expanded.csv'],
    ['/files', 'checksum', 'expanded=true', 'radarnet/mirror/v3/files.sha1'],
    ['/radars', 'json', '', 'radarnet/mirror/v3/radars.json'],
  ] as const)('%s as %s with %j: %s', (path, format, q, file) => {
    const plan = answerPlan(ask(path, format), params(q), LIVE);
    expect(plan.kind).toBe('tree-file');
    expect(plan.kind === 'tree-file' && plan.treeFile).toBe(file);
  });

  test('an id path names its id in plain decimal; its live answer is planned only if the file is missing', () => {
    const plan = answerPlan(ask('/files/:id', 'csv', 12n), params(), LIVE);
    expect(plan).toMatchObject({ kind: 'tree-file', treeFile: 'radarnet/mirror/v3/files/12.csv', contentType: 'text/csv; charset=utf-8', download: 'files-12.csv' });
    if (plan.kind !== 'tree-file') throw new Error('not a tree file');
    expect(plan.otherwise()).toMatchObject({ kind: 'query', mode: 'whole', bulk: false, one: true });
  });

  test.each(['timespan=2024-03-01/2024-03-02', 'bbox=0,0,1,1', 'radar_code=sas', 'distinct=true', 'delimiter=;', 'includeHeaders=false'])('%s is live', (q) => {
    expect(answerPlan(ask('/files', 'csv'), params(q), LIVE).kind).toBe('query');
  });

  test('a live-only endpoint never plans a file', () => {
    expect(answerPlan(ask('/files'), params(), { ...LIVE, tree: false }).kind).toBe('query');
  });
});

describe('pages and the index', () => {
  test('made from the route; under the spec\'s prefix a tree file holds the same bytes, under the alias none does', () => {
    expect(answerPlan(ask('/files', 'html'), params(), STATIC_HOST)).toMatchObject({ kind: 'page', treeFile: 'radarnet/mirror/v3/files.html', contentType: 'text/html; charset=utf-8' });
    expect(answerPlan(ask('/files', 'html', undefined, BAS_PREFIX), params(), STATIC_HOST)).toMatchObject({ kind: 'page', treeFile: undefined });
    expect(answerPlan(ask('/files/:id', 'html', 3n), params(), STATIC_HOST)).toMatchObject({ kind: 'page', treeFile: undefined });
    expect(answerPlan(ask('/'), params(), STATIC_HOST)).toMatchObject({ kind: 'index', treeFile: 'radarnet/mirror/v3/index.json', contentType: 'application/json' });
    // the tree has no expanded index (the same bytes): made, never looked for
    expect(answerPlan(ask('/'), params('expanded=true'), STATIC_HOST)).toMatchObject({ kind: 'index', treeFile: undefined });
  });
});

describe('live answers', () => {
  test('no catalogue database: unavailable', () => {
    expect(answerPlan(ask('/files'), params('radar_code=sas'), STATIC_HOST).kind).toBe('unavailable');
  });

  test('a resident table answers from memory, rows picked by the filters', () => {
    const plan = answerPlan(ask('/radars'), params('bbox=-110,50,-100,55'), LIVE);
    expect(plan).toMatchObject({ kind: 'resident', rows: [0], one: false });
    // expanded texts are not resident here: the query answers
    expect(answerPlan(ask('/radars'), params('expanded=true&bbox=-110,50,-100,55'), LIVE).kind).toBe('query');
  });

  test('one radar or one id is read whole; a long or open timespan is bulk; a day is neither', () => {
    expect(answerPlan(ask('/files'), params('radar_code=sas'), LIVE)).toMatchObject({ kind: 'query', mode: 'whole', bulk: false });
    expect(answerPlan(ask('/files'), params('timespan=2024-01-01/2024-03-01'), LIVE)).toMatchObject({ kind: 'query', mode: 'streamed', bulk: true });
    expect(answerPlan(ask('/files'), params('timespan=2024-01-01/2024-01-02'), LIVE)).toMatchObject({ kind: 'query', mode: 'streamed', bulk: false });
    expect(answerPlan(ask('/files'), params('distinct=true'), LIVE)).toMatchObject({ kind: 'query', mode: 'streamed', bulk: true });
  });

  test('one radar with its rows known: whole when they fit, else pieces of rowids covering the whole table in order; unknown or an id: as before', () => {
    const facts = (sas: number): PlanFacts => ({ ...LIVE, catalogue: { maxDurationMs: {}, radarRows: { files_x: { rows: 100_000, byRadar: new Map([['sas', sas]]) } } } });
    expect(answerPlan(ask('/files'), params('radar_code=sas&timespan=2024-01-01/2025-01-01'), facts(WHOLE_MAX_ROWS))).toMatchObject({ kind: 'query', mode: 'whole', bulk: false });
    // a radar the table lacks: nothing to read, whole
    expect(answerPlan(ask('/files'), params('radar_code=xyz'), facts(5))).toMatchObject({ kind: 'query', mode: 'whole' });
    const plan = answerPlan(ask('/files'), params('radar_code=sas'), facts(WHOLE_MAX_ROWS * 2 + 1));
    expect(plan.kind).toBe('pieces');
    if (plan.kind !== 'pieces') return;
    // 20,001 rows, 5,000 a piece: 5 pieces of 20,000 rowids, the last one open-ended
    expect(plan.pieces.map((q) => [q.params['rowid_from'], q.params['rowid_to']])).toEqual([['0', '19999'], ['20000', '39999'], ['40000', '59999'], ['60000', '79999'], ['80000', undefined]]);
    for (const q of plan.pieces) expect(q.sql).toMatch(/radar_code = \$radar_code.*rowid >= CAST\(\$rowid_from AS BIGINT\)/);
    // an id, another table, a partitioned catalogue (no rows known): as before
    expect(answerPlan(ask('/files/:id', 'json', 3n), params('radar_code=sas'), facts(WHOLE_MAX_ROWS * 3)).kind).toBe('query');
    expect(answerPlan(ask('/transferred/files'), params('radar_code=sas'), facts(WHOLE_MAX_ROWS * 3))).toMatchObject({ kind: 'query', mode: 'whole' });
  });

  test('a download is named by the request', () => {
    expect(answerPlan(ask('/files', 'checksum'), params('radar_code=sas'), LIVE).download).toBe('files-sas.sha1');
    expect(answerPlan(ask('/files', 'json'), params('radar_code=sas'), LIVE).download).toBeUndefined();
  });
});

describe('chooseFormat', () => {
  test('contentType wins over Accept; a format the path lacks is 406; Accept is negotiated', () => {
    expect(chooseFormat('text/csv', route('/files'), 'json')).toBe('json');
    expect(() => chooseFormat(undefined, route('/coverage/temporal'), 'checksum')).toThrow(HttpError);
    expect(chooseFormat('text/csv', route('/files'), undefined)).toBe('csv');
    expect(chooseFormat(undefined, route('/files'), undefined)).toBe('json');
  });
});
