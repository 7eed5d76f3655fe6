/**
 * The plan of one collection file of the radar tree over its base build's file: which bytes of the base stay
 * unread at the start (keep), which blocks of it are copied as they are (copy), and which ranges of keys have their
 * records made again (remake). Pure: from the base's cuts and pieces (build-scripts/lib/tree-state.ts
 * CollectionState) and the blocks of changed keys; build-scripts/radar/write-tree.ts `writeCollection` carries the
 * plan out and does no block arithmetic of its own.
 *
 * A collection file is its frame's open, its records in key order, and its close. Its cuts split the records into
 * blocks of KEYS_PER_CUT keys (`k / KEYS_PER_CUT`): a cut `[k, offset]` at the first record of each block, at the
 * byte where that record begins (its separator included). A piece of the file ends at each cut, and the base
 * recorded each piece's MD5. The last block ends with the frame's close, so it is never copied; nor is a block with
 * a changed key, nor one whose MD5 the base lacks.
 */

/** Keys per block of a collection file (its cuts). */
export const KEYS_PER_CUT = 1024n;

/** A piece of a file written piece by piece: its bytes up to `end`, from the previous piece's end (or 0), have this MD5. */
export type Piece = [end: number, md5: string];

/** `[k, offset]`: the first record of key `k`'s block begins at byte `offset` (its separator included). */
export type Cut = [k: string, offset: number];

/** What the planner reads of a base's collection file. */
export interface BaseCollection {
  cuts: readonly Cut[];
  pieces: readonly Piece[];
}

/** A block's records in the base's collection file: bytes `start` to `end` (-1: to the file's end), a piece with that MD5. */
export interface BaseBlock {
  k: string;
  block: bigint;
  start: number;
  end: number;
  md5: string | undefined;
}

/** Keys from `from` (every key when undefined) below `to` (every key when undefined). */
export interface KeyRange {
  from: bigint | undefined;
  to: bigint | undefined;
}

/** The records of the keys of `keys`, made again from the database. */
export interface RemakeStep {
  kind: 'remake';
  keys: KeyRange;
}

/**
 * A block of the base's file whose keys did not change: its bytes copied (bytes `start` to `end`, a piece with MD5
 * `md5`, a cut at its first key `k`). Those bytes begin with a separator, so they cannot open the file's records:
 * where no record precedes the block (every earlier one was removed), the executor makes its `keys` again instead.
 */
export interface CopyStep {
  kind: 'copy';
  keys: { from: bigint; to: bigint };
  block: { k: string; block: bigint; start: number; end: number; md5: string };
}

export type Step = RemakeStep | CopyStep;

/** The base's file from its start to byte `bytes`, kept unread: its first `cuts` and the `pieces` ending there. */
export interface KeptStart {
  bytes: number;
  cuts: Cut[];
  pieces: Piece[];
  /** The block of the last key kept (undefined: no record kept, only the frame's open). */
  lastBlock: bigint | undefined;
}

export type CollectionPlan<B extends BaseCollection = BaseCollection> =
  /** The base's file as it is: no key of the resource changed. */
  | { kind: 'keep'; base: B }
  /**
   * A file made by `steps`, in order, after the frame's open (a new file: `start` undefined) or after the base's
   * bytes `start` keeps; then the frame's close. `readsBase`: some step copies the base's bytes, so the base's file
   * must stay readable while the new one is written.
   */
  | { kind: 'write'; start: KeptStart | undefined; readsBase: boolean; steps: Step[] };

/** Every record made: a new file. */
const WHOLE: CollectionPlan<never> = { kind: 'write', start: undefined, readsBase: false, steps: [{ kind: 'remake', keys: { from: undefined, to: undefined } }] };

/** The blocks of a base's collection file, each between two cuts (the last one, which ends with the frame's close, has no `end`: -1). */
export function baseBlocks(base: BaseCollection): BaseBlock[] {
  const md5At = new Map(base.pieces.map(([end, m]) => [end, m]));
  return base.cuts.map(([k, start], i) => {
    const end = base.cuts[i + 1]?.[1] ?? -1;
    return { k, block: BigInt(k) / KEYS_PER_CUT, start, end, md5: end === start ? '' : md5At.get(end) };
  });
}

/**
 * The plan of a collection file. `base`: the base build's file, made the same way and as the base build left it
 * (undefined: none to start from). `changed`: the blocks (`k / KEYS_PER_CUT`) of the keys whose records changed
 * since the base (new, removed or other records), or 'all' (no base was compared).
 *
 * Without a changed block the base's file is kept. Else the base's bytes stay up to the first block that is not
 * copied or that a changed block comes before; every later block without a changed key is copied, and the
 * records of the others (adjacent ones in one range) are made again; the last block always is.
 */
export function planCollection<B extends BaseCollection>(base: B | undefined, changed: readonly bigint[] | 'all'): CollectionPlan<B> {
  if (base === undefined || changed === 'all') return WHOLE;
  if (changed.length === 0) return { kind: 'keep', base };
  const blocks = baseBlocks(base);
  if (blocks.length === 0) return WHOLE;
  const changedSet = new Set(changed.map(String));
  // the blocks that may be copied: all but the last, without a changed key, with the MD5 of their piece
  const copyable = blocks.filter((b, i) => i < blocks.length - 1 && !changedSet.has(String(b.block)) && b.md5 !== undefined);
  const lowest = changed.reduce((a, b) => (b < a ? b : a));
  // the file stays as it is up to the first block that is not copyable, or that a changed block comes before
  let resume = 0;
  while (resume < blocks.length - 1 && copyable[resume] === blocks[resume] && blocks[resume]!.block < lowest) resume++;
  const at = blocks[resume]!.start;
  const pieces = base.pieces.filter(([end]) => end <= at);
  if ((pieces.at(-1)?.[0] ?? 0) !== at) throw new Error(`tree state: no piece of the collection ends at its cut at byte ${at}`);
  const start: KeptStart = { bytes: at, cuts: base.cuts.slice(0, resume), pieces, lastBlock: resume > 0 ? blocks[resume - 1]!.block : undefined };
  // blocks whose records are made again: the changed ones and the base's not copied (a range without one has no keys)
  const copied = copyable.slice(resume);
  const copiedSet = new Set<BaseBlock>(copied);
  const remade = [...changed, ...blocks.filter((b) => !copiedSet.has(b)).map((b) => b.block)];
  const hasRecords = (from: bigint | undefined, to: bigint) => remade.some((b) => (from === undefined || b * KEYS_PER_CUT >= from) && b * KEYS_PER_CUT < to);
  const steps: Step[] = [];
  // every key after the blocks kept as they are
  let from = resume > 0 ? (blocks[resume - 1]!.block + 1n) * KEYS_PER_CUT : undefined;
  for (const b of copied) {
    const to = b.block * KEYS_PER_CUT;
    if (hasRecords(from, to)) steps.push({ kind: 'remake', keys: { from, to } });
    steps.push({ kind: 'copy', keys: { from: to, to: to + KEYS_PER_CUT }, block: { k: b.k, block: b.block, start: b.start, end: b.end, md5: b.md5! } });
    from = to + KEYS_PER_CUT;
  }
  steps.push({ kind: 'remake', keys: { from, to: undefined } });
  return { kind: 'write', start, readsBase: copied.length > 0, steps };
}
