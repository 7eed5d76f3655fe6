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
import { all, sqlString, streamKeyedText } from '../../lib/duckdb.ts';
import type { Progress } from '../lib/progress.ts';
import { KEYS_PER_CUT, type CollectionState, type TreeState } from '../lib/tree-state.ts';
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

function idPath(route: RadarRoute, id: bigint | string): string {
  return `${RADAR_PREFIX}${route.path.slice(0, -':id'.length)}${id}`;
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

/** One route and variant of id files: a tag for the tree state, and the path of the file of id k. */
interface IdFiles {
  tag: number;
  route: RadarRoute;
  v: Variant;
  prefix: string;
  suffix: string;
}

function idFiles(): IdFiles[] {
  const out: IdFiles[] = [];
  for (const route of RADAR_ROUTES) {
    if (!route.path.endsWith('/:id')) continue;
    for (const v of routeVariants(route)) {
      const [prefix, suffix] = staticFile(idPath(route, '\u0000'), v).split('\u0000') as [string, string];
      out.push({ tag: out.length, route, v, prefix, suffix });
    }
  }
  return out;
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
function linkSource(files: IdFiles[], f: IdFiles): number | undefined {
  if (!isLinkedVariant(f.route, f.v)) return undefined;
  const simple = simpleVariant(f.v);
  return files.find((x) => x.route === f.route && x.v === simple)!.tag;
}

/**
 * What makes a tag's files from its key's records: the SQL of their texts, their paths and DuckDB's version
 * (tree-state.ts). Another snapcat that writes other bytes has other SQL.
 */
function idFileSignature(ctx: RadarTreeContext, f: IdFiles, duckdbVersion: string): string {
  const q = idContentSql(ctx, f.route, f.v);
  return createHash('md5').update(JSON.stringify([q.sql, q.params, f.prefix, f.suffix, duckdbVersion])).digest('hex');
}

/** The resources that have id files, by name: their keys are fingerprinted (tree-state.ts addKeys). */
function keyedResources(files: IdFiles[]): ResourceName[] {
  return [...new Set(files.map((f) => f.route.resource!))];
}

/**
 * Fingerprints every key's records, and learns which tags' files the base's may stand for (reusable). Both go
 * into the tree state for the next build; over a base, the keys are compared with its keys.
 */
async function prepareIdState(ctx: RadarTreeContext, files: IdFiles[]): Promise<Set<number>> {
  ctx.progress.begin('radar tree: fingerprinting records');
  for (const res of keyedResources(files)) await ctx.state.addKeys(res, RESOURCES[res].table);
  await ctx.state.compareKeys();
  const [row] = await all(ctx.conn, 'SELECT version() AS v');
  const version = String(row!['v']);
  const reusable = new Set<number>();
  const signatures = new Map<number, string>();
  for (const f of files) {
    // a linked variant's files are its source's under other names: made as the source's are
    const source = linkSource(files, f);
    if (source !== undefined && !signatures.has(source)) throw new Error(`${f.prefix}…${f.suffix}: linked before its source`);
    const signature = source === undefined ? idFileSignature(ctx, f, version) : `link ${signatures.get(source)} ${f.prefix} ${f.suffix}`;
    signatures.set(f.tag, signature);
    if (ctx.state.reusable(f.tag, signature, f.prefix, f.suffix)) reusable.add(f.tag);
  }
  return reusable;
}

/**
 * Hashes the id files in SQL into the tree state and compares them with the base tree's. Of a reusable tag, only
 * the files of keys whose records changed are made and hashed; the others' rows come from the base state.
 */
async function hashIdFiles(ctx: RadarTreeContext, files: IdFiles[], reusable: Set<number>): Promise<Map<number, { changed: number; total: number }>> {
  ctx.progress.begin('radar tree: comparing id files');
  await ctx.state.keepUnchangedIdFiles(files.filter((f) => reusable.has(f.tag)).map((f) => ({ tag: f.tag, res: f.route.resource! })));
  for (const f of files) {
    const source = linkSource(files, f);
    if (source !== undefined) {
      await ctx.state.addLinkedIdFiles(f.tag, source, reusable.has(f.tag));
    } else if (reusable.has(f.tag)) {
      await ctx.state.addIdFiles(f.tag, idContentSql(ctx, f.route, f.v, ctx.state.changedKeysOfSql(f.route.resource!)));
    } else {
      await ctx.state.addIdFiles(f.tag, idContentSql(ctx, f.route, f.v));
    }
  }
  return ctx.state.compareIdFiles();
}

/** The files of the routes without an id (collections, the index, docs), every variant. */
function wholeFiles(): number {
  return RADAR_ROUTES.filter((r) => !r.path.endsWith('/:id')).reduce((n, r) => n + routeVariants(r).length, 0);
}

/** A block's records in the base's collection file: bytes `start` to `end`, a piece with that MD5. */
interface BaseBlock {
  k: string;
  block: bigint;
  start: number;
  end: number;
  md5: string | undefined;
}

/** The blocks of a base's collection file, each between two cuts (the last one, which ends with the frame's close, has no `end`). */
function baseBlocks(base: CollectionState): BaseBlock[] {
  const md5At = new Map(base.pieces.map(([end, m]) => [end, m]));
  return base.cuts.map(([k, start], i) => {
    const end = base.cuts[i + 1]?.[1] ?? -1;
    return { k, block: BigInt(k) / KEYS_PER_CUT, start, end, md5: end === start ? '' : md5At.get(end) };
  });
}

/**
 * A collection: one file, streamed, its cuts and pieces recorded (tree-state.ts CollectionState). Over a base
 * tree whose file was made the same way and is as the base build left it (its stamp): when no record of the
 * resource changed (`changed` empty) it is the base's file, kept; else it keeps the base's bytes of every block
 * of keys without a change (unread before the first changed block, copied after it), and the records of the
 * other blocks are made again. One more day of a mirror changes the blocks of its new keys and of the few old
 * ones a day touches. `changed` 'all': no base to start from.
 */
async function writeCollection(ctx: RadarTreeContext, route: RadarRoute, v: Variant, changed: bigint[] | 'all'): Promise<void> {
  const { format, frame } = recordFrame(route, v);
  const rel = staticFile(`${RADAR_PREFIX}${route.path}`, v);
  const q = recordQuery({ route, format, expanded: v.expanded, selection: NO_SELECTION, ordinal: true }, ctx.facts);
  const signature = createHash('md5').update(JSON.stringify([q.sql, q.params, frame, `cut every ${KEYS_PER_CUT} keys`])).digest('hex');
  const [open, separator, terminator] = [frame.open, frame.separator, frame.terminator].map((x) => Buffer.byteLength(x));
  // the base's file, made with the same SQL and frame (the signature), untouched since (its stamp)
  const baseState = changed === 'all' ? undefined : ctx.state.collectionBase(rel, signature);
  const base = baseState && ctx.writer.baseIntact(rel, baseState.stamp) ? baseState : undefined;
  if (base && changed !== 'all' && changed.length === 0) {
    ctx.writer.keep(rel, base.stamp.size);
    ctx.state.addCollection(rel, base);
    return;
  }
  // the base's blocks kept: all but the last (which ends with the frame's close), without a changed key
  const changedSet = new Set(changed === 'all' ? [] : changed.map(String));
  const blocks = base ? baseBlocks(base) : [];
  const kept = blocks.filter((b, i) => i < blocks.length - 1 && !changedSet.has(String(b.block)) && b.md5 !== undefined);
  // the file stays as it is up to the first block that is not kept, or that a changed block comes before
  const lowest = changed === 'all' ? undefined : changed[0];
  let resume = 0;
  while (resume < blocks.length - 1 && kept[resume] === blocks[resume] && (lowest === undefined || blocks[resume]!.block < lowest)) resume++;
  const later = kept.slice(resume);
  const cuts: [string, number][] = [];
  let at = open!;
  let file: PiecewiseFile;
  let from: bigint | undefined;
  if (base && blocks.length > 0) {
    at = blocks[resume]!.start;
    const before = base.pieces.filter(([end]) => end <= at);
    if ((before.at(-1)?.[0] ?? 0) !== at) throw new Error(`tree state: no piece of ${rel} ends at its cut at byte ${at}`);
    // a copy when blocks after the first change are kept: their bytes are read from the base's file
    file = ctx.writer.continueBase(rel, before, { copy: later.length > 0 });
    cuts.push(...base.cuts.slice(0, resume));
    // every key after the blocks kept as they are
    from = resume > 0 ? (blocks[resume - 1]!.block + 1n) * KEYS_PER_CUT : undefined;
  } else {
    file = ctx.writer.open(rel);
    file.append(frame.open);
  }
  let first = at === open;
  let lastBlock: bigint | undefined = resume > 0 ? blocks[resume - 1]!.block : undefined;
  // blocks whose records are made again: the changed ones and the base's not kept (a range without one has none)
  const keptSet = new Set(kept);
  const remade = [...(changed === 'all' ? [] : changed), ...blocks.filter((b) => !keptSet.has(b)).map((b) => b.block)];
  const hasRecords = (lo: bigint | undefined, hi: bigint) => remade.some((b) => (lo === undefined || b * KEYS_PER_CUT >= lo) && b * KEYS_PER_CUT < hi);
  /** The records of keys from `lo` (all without) below `hi` (all without), in stored order, each block after a cut. */
  const writeRecords = async (lo: bigint | undefined, hi: bigint | undefined) => {
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
  for (const b of later) {
    // the records between the last block written and this kept one, then its bytes as the base holds them
    if (hasRecords(from, b.block * KEYS_PER_CUT)) await writeRecords(from, b.block * KEYS_PER_CUT);
    // (a block's bytes begin with a separator: it cannot open the file's records, and is made again)
    if (first) {
      remade.push(b.block);
      continue;
    }
    file.mark();
    cuts.push([b.k, at]);
    file.appendBasePiece(b.start, b.end, b.md5!);
    at += b.end - b.start;
    lastBlock = b.block;
    from = (b.block + 1n) * KEYS_PER_CUT;
  }
  await writeRecords(from, undefined);
  file.append(frame.close);
  const { pieces, stamp } = file.close();
  ctx.state.addCollection(rel, { signature, cuts, pieces, stamp });
}

/**
 * The id files of a route and variant that differ from the base tree's. All of them (a build into an empty
 * folder): rows come ordered by id and every run of one id is one file. Some: their texts built in SQL.
 */
async function writeIdFiles(ctx: RadarTreeContext, f: IdFiles, changedKeys: string | undefined, hashed: boolean): Promise<void> {
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
  // files not hashed in SQL beforehand (a build into an empty folder) join the tree state as they are written
  const recorder = hashed ? undefined : await ctx.state.idFileRecorder(f.tag);
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

/** The id files of a single-view resource's expanded variant: links to the simple variant's files. */
async function linkIdFiles(ctx: RadarTreeContext, f: IdFiles, changedKeys: string | undefined): Promise<void> {
  const simple = simpleVariant(f.v);
  const keys = changedKeys ?? ctx.state.idKeysSql(f.tag);
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
  const files = idFiles();
  // Over a base tree, the id files are hashed in SQL first, and only the changed ones written. Into an empty
  // folder every file is new: they are written straight away and hashed as they are written, which saves a
  // pass making every text twice (1.0 of 5.3 s building 7 days, 140,000 files, on a RAM disk).
  const reusable = await prepareIdState(ctx, files);
  const changes = ctx.state.overBase ? await hashIdFiles(ctx, files, reusable) : undefined;
  // the files this build writes, for the progress line: the changed id files, and the collections and docs
  ctx.progress.totalFiles += changes ? [...changes.values()].reduce((n, c) => n + c.changed, 0) + wholeFiles() : await countRadarTreeFiles(ctx.conn);
  // the changed blocks of keys of each resource, for its collections (writeCollection)
  const blocks = new Map<ResourceName, Promise<bigint[]>>();
  const changedBlocks = (res: ResourceName) => blocks.get(res) ?? blocks.set(res, ctx.state.changedBlocks(res)).get(res)!;
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
        else await writeCollection(ctx, route, v, changes ? await changedBlocks(route.resource!) : 'all');
      } else {
        const f = files.find((x) => x.route === route && x.v === v)!;
        // over a base tree: only the changed files (all of a tag when all changed); into an empty folder: all
        const c = changes?.get(f.tag) ?? { changed: 0, total: 0 };
        if (changes && c.changed === 0) continue;
        const changedKeys = changes && c.changed !== c.total ? ctx.state.changedKeysSql(f.tag) : undefined;
        const source = linkSource(files, f);
        if (source === undefined) {
          await writeIdFiles(ctx, f, changedKeys, changes !== undefined);
          continue;
        }
        // a linked variant's state rows are the source's under its own names (hashIdFiles added them already)
        if (!changes) await ctx.state.addLinkedIdFiles(f.tag, source, false);
        await linkIdFiles(ctx, f, changedKeys);
      }
    }
  }
}
