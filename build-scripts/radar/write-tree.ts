/**
 * Writes the radar catalogue's static tree: every collection path and every id path of the route table,
 * in every variant (core/radar/static-tree.ts), from the catalogue database, streamed chunk by chunk.
 */
import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { bodyFrame, joinBatch, type BodyFrame } from '../../core/radar/bodies.ts';
import type { SqlFragment } from '../../core/sql.ts';
import { routeDocPage } from '../../core/radar/html-doc.ts';
import { NO_SELECTION, recordQuery, type CatalogueFacts } from '../../core/radar/queries.ts';
import { RADAR_FORMATS, type RecordFormat } from '../../core/formats/radar.ts';
import { RESOURCES, viewFields, type ResourceName } from '../../core/radar/resources.ts';
import { indexDocument, RADAR_PREFIX, RADAR_ROUTES, routeTable, type RadarRoute } from '../../core/radar/routes.ts';
import { routeVariants, staticFile, VARIANTS, type Variant } from '../../core/radar/static-tree.ts';
import { KEYS_PER_CUT, planCollection, type Cut, type KeyRange } from '../../core/tree/plan.ts';
import { idFileTags, idPath, type IdFileTag } from '../../core/tree/tags.ts';
import { all, sqlString, streamKeyedText } from '../../lib/duckdb.ts';
import type { Progress } from '../lib/progress.ts';
import type { ComparedIdFiles, FreshIdFiles, HashingIdFiles, IdFileRecorder } from '../lib/tree-phases.ts';
import type { TreeState } from '../lib/tree-state.ts';
import type { PiecewiseFile, TreeWriter } from '../lib/tree-writer.ts';

export interface RadarTreeContext {
  conn: DuckDBConnection;
  facts: CatalogueFacts;
  writer: TreeWriter;
  progress: Progress;
  state: TreeState;
}

/** How many files the tree has (for extrapolating from a catalogue whose tree is not built). */
export async function countRadarTreeFiles(conn: DuckDBConnection): Promise<number> {
  let n = 0;
  for (const route of RADAR_ROUTES) {
    const variants = routeVariants(route).length;
    if (!route.path.endsWith('/:id')) {
      n += variants;
      continue;
    }
    const [row] = await all(conn, `SELECT count(DISTINCT id) AS n FROM ${routeTable(route)} WHERE ${route.where ?? 'true'}`);
    n += Number(row!['n']) * variants;
  }
  return n;
}

/** Resources with one view answer `expanded=true` with the same bytes: a hard link, not a second write. */
function isLinkedVariant(route: RadarRoute, v: Variant): boolean {
  return v.expanded && RESOURCES[route.resource!].expanded.length === 0;
}

function simpleVariant(v: Variant): Variant {
  return VARIANTS.find((x) => x.format === v.format && !x.expanded)!;
}

function recordFrame(route: RadarRoute, v: Variant): { format: RecordFormat; frame: BodyFrame } {
  const r = RESOURCES[route.resource!];
  const format = v.format as RecordFormat;
  const header = RADAR_FORMATS[format].header(viewFields(r, v.expanded), ',');
  return { format, frame: bodyFrame(format, route.shape, header) };
}

/**
 * `(k, c)`: every id (or those `keys` selects) and its file's whole text, as writeIdFiles writes it
 * (bodies.ts joinBatch), built in SQL. The key filter comes before the texts are made, so a few changed
 * files cost a few texts.
 */
function idContentSql(ctx: RadarTreeContext, route: RadarRoute, v: Variant, keys?: string): SqlFragment {
  const { format, frame } = recordFrame(route, v);
  const q = recordQuery({ route, format, expanded: v.expanded, selection: NO_SELECTION, ordinal: true }, ctx.facts);
  const [open, term, sep, close] = [frame.open, frame.terminator, frame.separator, frame.close].map(sqlString);
  const only = keys === undefined ? '' : ` WHERE k IN (${keys})`;
  return { sql: `SELECT k, ${open} || coalesce(string_agg(t || ${term}, ${sep} ORDER BY rn), '') || ${close} AS c FROM (${q.sql})${only} GROUP BY k`, params: q.params };
}

/** The tag of the id files a linked variant's files are hard links to (the simple variant's). */
function linkSource(files: IdFileTag[], f: IdFileTag): string | undefined {
  if (!isLinkedVariant(f.route, f.v)) return undefined;
  const simple = simpleVariant(f.v);
  return files.find((x) => x.route === f.route && x.v === simple)!.tag;
}

/**
 * What makes a tag's files from its key's records: the SQL of their texts, their paths and DuckDB's version
 * (tree-state.ts). Another snapcat that writes other bytes has other SQL.
 */
function idFileSignature(ctx: RadarTreeContext, f: IdFileTag, duckdbVersion: string): string {
  const q = idContentSql(ctx, f.route, f.v);
  return createHash('md5').update(JSON.stringify([q.sql, q.params, f.prefix, f.suffix, duckdbVersion])).digest('hex');
}

/** The resources that have id files, by name: their keys are fingerprinted (tree-state.ts fingerprintKeys). */
function keyedResources(files: IdFileTag[]): ResourceName[] {
  return [...new Set(files.map((f) => f.route.resource!))];
}

/**
 * Fingerprints every key's records, and registers every tag with what makes its files, which tells which tags'
 * files the base's may stand for (reusable). Both go into the tree state for the next build; over a base, the
 * keys are compared with its keys.
 */
async function prepareIdState(ctx: RadarTreeContext, files: IdFileTag[]): Promise<HashingIdFiles | FreshIdFiles> {
  ctx.progress.begin('radar tree: fingerprinting records');
  const keys = await ctx.state.fingerprintKeys(keyedResources(files).map((res) => ({ res, table: RESOURCES[res].table })));
  const [row] = await all(ctx.conn, 'SELECT version() AS v');
  const version = String(row!['v']);
  const signatures = new Map<string, string>();
  for (const f of files) {
    // a linked variant's files are its source's under other names: made as the source's are
    const source = linkSource(files, f);
    if (source !== undefined && !signatures.has(source)) throw new Error(`${f.prefix}…${f.suffix}: linked before its source`);
    signatures.set(f.tag, source === undefined ? idFileSignature(ctx, f, version) : `link ${signatures.get(source)} ${f.prefix} ${f.suffix}`);
  }
  return keys.registerTags(files.map((f) => ({ tag: f.tag, res: f.route.resource!, signature: signatures.get(f.tag)!, prefix: f.prefix, suffix: f.suffix })));
}

/**
 * Hashes the id files in SQL into the tree state and compares them with the base tree's. Of a reusable tag, only
 * the files of keys whose records changed are made and hashed; the others' rows come from the base state.
 */
async function hashIdFiles(ctx: RadarTreeContext, files: IdFileTag[], hashing: HashingIdFiles): Promise<ComparedIdFiles> {
  ctx.progress.begin('radar tree: comparing id files');
  for (const f of files) {
    const source = linkSource(files, f);
    if (source !== undefined) {
      await hashing.addLinkedIdFiles(f.tag, source);
    } else if (hashing.reusable.has(f.tag)) {
      await hashing.addIdFiles(f.tag, idContentSql(ctx, f.route, f.v, hashing.changedKeysOfSql(f.route.resource!)));
    } else {
      await hashing.addIdFiles(f.tag, idContentSql(ctx, f.route, f.v));
    }
  }
  return hashing.compareIdFiles();
}

/** The files of the routes without an id (collections, the index, docs), every variant. */
function wholeFiles(): number {
  return RADAR_ROUTES.filter((r) => !r.path.endsWith('/:id')).reduce((n, r) => n + routeVariants(r).length, 0);
}

/**
 * A collection: one file, streamed, its cuts and pieces recorded (tree-state.ts CollectionState), carrying out
 * its plan (core/tree/plan.ts planCollection). Over a base tree whose file was made the same way and is as the
 * base build left it (its stamp), the plan keeps the base's file when no record of the resource changed
 * (`changed` empty), else keeps the base's bytes of every block of keys without a change (unread before the first
 * changed block, copied after it) and has the records of the other blocks made again. One more day of a mirror
 * changes the blocks of its new keys and of the few old ones a day touches. `changed` 'all': no base to start from.
 */
async function writeCollection(ctx: RadarTreeContext, files: ComparedIdFiles | FreshIdFiles, route: RadarRoute, v: Variant, changed: bigint[] | 'all'): Promise<void> {
  const { format, frame } = recordFrame(route, v);
  const rel = staticFile(`${RADAR_PREFIX}${route.path}`, v);
  const q = recordQuery({ route, format, expanded: v.expanded, selection: NO_SELECTION, ordinal: true }, ctx.facts);
  const signature = createHash('md5').update(JSON.stringify([q.sql, q.params, frame, `cut every ${KEYS_PER_CUT} keys`])).digest('hex');
  const [open, separator, terminator] = [frame.open, frame.separator, frame.terminator].map((x) => Buffer.byteLength(x));
  // the base's file, made with the same SQL and frame (the signature), untouched since (its stamp)
  const baseState = files.kind === 'compared' && changed !== 'all' ? files.collectionBase(rel, signature) : undefined;
  const plan = planCollection(baseState && ctx.writer.baseIntact(rel, baseState.stamp) ? baseState : undefined, changed);
  if (plan.kind === 'keep') {
    ctx.writer.keep(rel, plan.base.stamp.size);
    files.addCollection(rel, plan.base);
    return;
  }
  const cuts: Cut[] = [...(plan.start?.cuts ?? [])];
  let at = plan.start?.bytes ?? open!;
  let file: PiecewiseFile;
  if (plan.start) {
    // a copy when the plan copies blocks of the base: their bytes are read from the base's file
    file = ctx.writer.continueBase(rel, plan.start.pieces, { copy: plan.readsBase });
  } else {
    file = ctx.writer.open(rel);
    file.append(frame.open);
  }
  let first = at === open;
  let lastBlock = plan.start?.lastBlock;
  /** The records of the keys of `keys`, in stored order, each block after a cut. */
  const writeRecords = async ({ from: lo, to: hi }: KeyRange) => {
    const where = [lo === undefined ? '' : 'k >= CAST($lo AS BIGINT)', hi === undefined ? '' : 'k < CAST($hi AS BIGINT)'].filter(Boolean);
    const records: SqlFragment = where.length
      ? { sql: `SELECT k, t FROM (${q.sql}) WHERE ${where.join(' AND ')} ORDER BY rn`, params: { ...q.params, ...(lo === undefined ? {} : { lo: String(lo) }), ...(hi === undefined ? {} : { hi: String(hi) }) } }
      : { sql: `SELECT k, t FROM (${q.sql})`, params: q.params };
    for await (const batch of streamKeyedText(ctx.conn, records)) {
      const piece = Buffer.from(joinBatch(frame, batch.texts, first), 'utf8');
      // `piece` begins at byte `pieceAt` of the file; a piece of the file ends at each cut
      const pieceAt = at;
      let appended = 0;
      for (let i = 0; i < batch.keys.length; i++) {
        const k = batch.keys[i]!;
        const block = k / KEYS_PER_CUT;
        if (block !== lastBlock) {
          cuts.push([String(k), at]);
          file.append(piece.subarray(appended, at - pieceAt));
          appended = at - pieceAt;
          file.mark();
          lastBlock = block;
        }
        const t = batch.texts[i];
        if (t === null || t === undefined) continue;
        at += (first ? 0 : separator!) + Buffer.byteLength(t) + terminator!;
        first = false;
      }
      if (pieceAt + piece.length !== at) throw new Error(`${rel}: the records' bytes (${piece.length}) differ from their offsets (${at - pieceAt})`);
      file.append(piece.subarray(appended));
    }
  };
  for (const step of plan.steps) {
    // a copied block's bytes begin with a separator: where no record precedes it, its records are made instead
    if (step.kind === 'remake' || first) {
      await writeRecords(step.keys);
      continue;
    }
    const b = step.block;
    file.mark();
    cuts.push([b.k, at]);
    file.appendBasePiece(b.start, b.end, b.md5);
    at += b.end - b.start;
    lastBlock = b.block;
  }
  file.append(frame.close);
  const { pieces, stamp } = file.close();
  files.addCollection(rel, { signature, cuts, pieces, stamp });
}

/**
 * The id files of a route and variant that differ from the base tree's. All of them (a build into an empty
 * folder): rows come ordered by id and every run of one id is one file, each recorded as it is written. Some:
 * their texts built in SQL. `changedKeys`: the SQL of those; undefined: all of them.
 */
async function writeIdFiles(ctx: RadarTreeContext, f: IdFileTag, changedKeys: string | undefined, recorder: IdFileRecorder | undefined): Promise<void> {
  const path = (k: bigint) => `${f.prefix}${k}${f.suffix}`;
  if (changedKeys !== undefined) {
    const q = idContentSql(ctx, f.route, f.v, changedKeys);
    for await (const batch of streamKeyedText(ctx.conn, { sql: `SELECT k, c AS t FROM (${q.sql})`, params: q.params })) {
      for (let i = 0; i < batch.keys.length; i++) ctx.writer.writeDecided(path(batch.keys[i]!), batch.texts[i] ?? '');
      await ctx.writer.settle();
    }
    return;
  }
  const { format, frame } = recordFrame(f.route, f.v);
  const q = recordQuery({ route: f.route, format, expanded: f.v.expanded, selection: NO_SELECTION }, ctx.facts);
  let current: bigint | undefined;
  let texts: (string | null)[] = [];
  const flush = () => {
    if (current === undefined) return;
    const rel = path(current);
    const bytes = Buffer.from(frame.open + joinBatch(frame, texts, true) + frame.close, 'utf8');
    ctx.writer.writeDecided(rel, bytes);
    recorder?.add(current, createHash('md5').update(bytes).digest(), bytes.length);
  };
  for await (const batch of streamKeyedText(ctx.conn, q)) {
    for (let i = 0; i < batch.keys.length; i++) {
      const k = batch.keys[i]!;
      if (k !== current) {
        flush();
        current = k;
        texts = [];
      }
      texts.push(batch.texts[i]!);
    }
    await ctx.writer.settle();
  }
  flush();
  recorder?.close();
}

/** The id files of a single-view resource's expanded variant: links to the simple variant's files. `keys`: the SQL of their keys. */
async function linkIdFiles(ctx: RadarTreeContext, f: IdFileTag, keys: string): Promise<void> {
  const simple = simpleVariant(f.v);
  for await (const batch of streamKeyedText(ctx.conn, { sql: `SELECT k, '' AS t FROM (${keys}) ORDER BY k`, params: {} })) {
    for (const id of batch.keys) ctx.writer.linkDecided(staticFile(idPath(f.route, id), simple), `${f.prefix}${id}${f.suffix}`);
    await ctx.writer.settle();
  }
}

/**
 * The radar tree. Id files are first hashed in SQL and compared with the base tree (tree-state.ts): only
 * the new and changed ones are generated. Collections and docs go through the writer, which compares them
 * as they are written.
 */
export async function writeRadarTree(ctx: RadarTreeContext): Promise<void> {
  // the id files are written by a worker thread while this one makes the next ones
  ctx.writer.startBackground();
  try {
    await writeRadarFiles(ctx);
    await ctx.writer.finishBackground();
  } catch (e) {
    await ctx.writer.abortBackground();
    throw e;
  }
}

async function writeRadarFiles(ctx: RadarTreeContext): Promise<void> {
  const files = idFileTags(RADAR_ROUTES);
  // Over a base tree, the id files are hashed in SQL first, and only the changed ones written. Into an empty
  // folder every file is new: they are written straight away and hashed as they are written, which saves a
  // pass making every text twice (1.0 of 5.3 s building 7 days, 140,000 files, on a RAM disk).
  const tags = await prepareIdState(ctx, files);
  const state = tags.kind === 'hashing' ? await hashIdFiles(ctx, files, tags) : tags;
  // the files this build writes, for the progress line: the changed id files, and the collections and docs
  ctx.progress.expectFiles('radar tree', state.kind === 'compared' ? [...state.changes.values()].reduce((n, c) => n + c.changed, 0) + wholeFiles() : await countRadarTreeFiles(ctx.conn));
  // the changed blocks of keys of each resource, for its collections (writeCollection)
  const blocks = new Map<ResourceName, Promise<bigint[]>>();
  const changedBlocks = (compared: ComparedIdFiles, res: ResourceName) => blocks.get(res) ?? blocks.set(res, compared.changedBlocks(res)).get(res)!;
  for (const route of RADAR_ROUTES) {
    ctx.progress.begin(`radar tree: ${route.path}`);
    for (const v of routeVariants(route)) {
      const rel = staticFile(`${RADAR_PREFIX}${route.path}`, v);
      if (v.format === 'html') {
        ctx.writer.write(rel, routeDocPage(route));
      } else if (route.shape === 'index') {
        ctx.writer.write(rel, JSON.stringify(indexDocument()));
      } else if (!route.path.endsWith('/:id')) {
        if (isLinkedVariant(route, v)) ctx.writer.link(staticFile(`${RADAR_PREFIX}${route.path}`, simpleVariant(v)), rel);
        else await writeCollection(ctx, state, route, v, state.kind === 'compared' ? await changedBlocks(state, route.resource!) : 'all');
      } else {
        const f = files.find((x) => x.route === route && x.v === v)!;
        const source = linkSource(files, f);
        if (state.kind === 'fresh') {
          // into an empty folder: all, recorded as they are written; a linked variant's state rows are the source's
          // under its own names
          if (source === undefined) {
            await writeIdFiles(ctx, f, undefined, await state.idFileRecorder(f.tag));
          } else {
            await state.addLinkedIdFiles(f.tag, source);
            await linkIdFiles(ctx, f, state.idKeysSql(f.tag));
          }
          continue;
        }
        // over a base tree: only the changed files (all of a tag when all changed), hashed already (hashIdFiles)
        const c = state.changes.get(f.tag) ?? { changed: 0, total: 0 };
        if (c.changed === 0) continue;
        const changedKeys = c.changed !== c.total ? state.changedKeysSql(f.tag) : undefined;
        if (source === undefined) await writeIdFiles(ctx, f, changedKeys, undefined);
        else await linkIdFiles(ctx, f, changedKeys ?? state.idKeysSql(f.tag));
      }
    }
  }
}
