/**
 * The plan of a radar collection file over its base build's (core/tree/plan.ts): which bytes stay, which blocks are
 * copied, which key ranges are made again. A table of cases over one base file, no I/O; the byte-for-byte check that
 * carrying a plan out gives the full build's file is test/integration/incremental-build.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { baseBlocks, KEYS_PER_CUT, planCollection, type BaseCollection, type CollectionPlan, type Step } from '../../core/tree/plan.ts';

const K = KEYS_PER_CUT;

/**
 * A base file `[` + records + `]` of blocks 0, 1, 2, 4 and 5 (no key of block 3), 100 bytes each, its first key
 * 10 past the block's start; a piece ends at each cut (the last block, which ends with the close, is no piece).
 */
const BASE: BaseCollection = {
  cuts: [
    ['10', 1],
    ['1034', 101],
    ['2058', 201],
    ['4106', 301],
    ['5130', 401],
  ],
  pieces: [
    [1, 'open'],
    [101, 'm0'],
    [201, 'm1'],
    [301, 'm2'],
    [401, 'm4'],
  ],
};

const remake = (from: bigint | undefined, to: bigint | undefined): Step => ({ kind: 'remake', keys: { from, to } });
const copy = (block: bigint, k: string, start: number, md5: string): Step => ({
  kind: 'copy',
  keys: { from: block * K, to: (block + 1n) * K },
  block: { k, block, start, end: start + 100, md5 },
});
const WHOLE: CollectionPlan = { kind: 'write', start: undefined, readsBase: false, steps: [remake(undefined, undefined)] };

describe('planCollection', () => {
  test('the base file splits into blocks between its cuts, each with the MD5 of the piece that ends it', () => {
    expect(baseBlocks(BASE)).toEqual([
      { k: '10', block: 0n, start: 1, end: 101, md5: 'm0' },
      { k: '1034', block: 1n, start: 101, end: 201, md5: 'm1' },
      { k: '2058', block: 2n, start: 201, end: 301, md5: 'm2' },
      { k: '4106', block: 4n, start: 301, end: 401, md5: 'm4' },
      { k: '5130', block: 5n, start: 401, end: -1, md5: undefined },
    ]);
  });

  test.each<[string, BaseCollection | undefined, readonly bigint[] | 'all', CollectionPlan]>([
    ['no change: the base file kept', BASE, [], { kind: 'keep', base: BASE }],
    ['no base: every record made', undefined, [1n], WHOLE],
    ['nothing compared (a build into an empty folder): every record made', BASE, 'all', WHOLE],
    ['a base file without records: every record made', { cuts: [], pieces: [] }, [0n], WHOLE],
    [
      'a change in the first block: the open kept, the first block made again, the later ones copied',
      BASE,
      [0n],
      {
        kind: 'write',
        start: { bytes: 1, cuts: [], pieces: [[1, 'open']], lastBlock: undefined },
        readsBase: true,
        steps: [remake(undefined, K), copy(1n, '1034', 101, 'm1'), copy(2n, '2058', 201, 'm2'), copy(4n, '4106', 301, 'm4'), remake(5n * K, undefined)],
      },
    ],
    [
      'a change in the middle block: the blocks before it kept, the block made again, those after it copied',
      BASE,
      [1n],
      {
        kind: 'write',
        start: { bytes: 101, cuts: [['10', 1]], pieces: [[1, 'open'], [101, 'm0']], lastBlock: 0n },
        readsBase: true,
        steps: [remake(K, 2n * K), copy(2n, '2058', 201, 'm2'), copy(4n, '4106', 301, 'm4'), remake(5n * K, undefined)],
      },
    ],
    [
      'a change in the last block: every block before it kept unread, nothing copied',
      BASE,
      [5n],
      {
        kind: 'write',
        start: { bytes: 401, cuts: BASE.cuts.slice(0, 4), pieces: [...BASE.pieces], lastBlock: 4n },
        readsBase: false,
        steps: [remake(5n * K, undefined)],
      },
    ],
    [
      'keys appended after the last (a block the base lacks): made again with the last block',
      BASE,
      [6n, 7n],
      {
        kind: 'write',
        start: { bytes: 401, cuts: BASE.cuts.slice(0, 4), pieces: [...BASE.pieces], lastBlock: 4n },
        readsBase: false,
        steps: [remake(5n * K, undefined)],
      },
    ],
    [
      'an insert growing a block: keys in a block the base has no key of, made again between the blocks around it',
      BASE,
      [3n],
      {
        kind: 'write',
        start: { bytes: 301, cuts: BASE.cuts.slice(0, 3), pieces: BASE.pieces.slice(0, 4), lastBlock: 2n },
        readsBase: true,
        steps: [remake(3n * K, 4n * K), copy(4n, '4106', 301, 'm4'), remake(5n * K, undefined)],
      },
    ],
    [
      'a removal emptying the first block: its range made again (with nothing), the next block copied or, with no record before it, made',
      BASE,
      [0n],
      {
        kind: 'write',
        start: { bytes: 1, cuts: [], pieces: [[1, 'open']], lastBlock: undefined },
        readsBase: true,
        steps: [remake(undefined, K), copy(1n, '1034', 101, 'm1'), copy(2n, '2058', 201, 'm2'), copy(4n, '4106', 301, 'm4'), remake(5n * K, undefined)],
      },
    ],
    [
      'adjacent changed blocks: one range made again',
      BASE,
      [1n, 2n],
      {
        kind: 'write',
        start: { bytes: 101, cuts: [['10', 1]], pieces: [[1, 'open'], [101, 'm0']], lastBlock: 0n },
        readsBase: true,
        steps: [remake(K, 4n * K), copy(4n, '4106', 301, 'm4'), remake(5n * K, undefined)],
      },
    ],
    [
      'changes apart: a range made again for each, the block between them copied',
      BASE,
      [0n, 2n],
      {
        kind: 'write',
        start: { bytes: 1, cuts: [], pieces: [[1, 'open']], lastBlock: undefined },
        readsBase: true,
        steps: [remake(undefined, K), copy(1n, '1034', 101, 'm1'), remake(2n * K, 4n * K), copy(4n, '4106', 301, 'm4'), remake(5n * K, undefined)],
      },
    ],
    [
      'all keys new: only the open kept, every record made',
      BASE,
      [0n, 1n, 2n, 3n, 4n, 5n, 6n],
      { kind: 'write', start: { bytes: 1, cuts: [], pieces: [[1, 'open']], lastBlock: undefined }, readsBase: false, steps: [remake(undefined, undefined)] },
    ],
    [
      'a block whose MD5 the base lacks is not copied: made again with the changed one before it',
      { cuts: BASE.cuts, pieces: BASE.pieces.filter(([end]) => end !== 301) },
      [1n],
      {
        kind: 'write',
        start: { bytes: 101, cuts: [['10', 1]], pieces: [[1, 'open'], [101, 'm0']], lastBlock: 0n },
        readsBase: true,
        steps: [remake(K, 4n * K), copy(4n, '4106', 301, 'm4'), remake(5n * K, undefined)],
      },
    ],
  ])('%s', (_name, base, changed, plan) => {
    expect(planCollection(base, changed)).toEqual(plan);
  });

  test('the changed blocks need not come sorted', () => {
    expect(planCollection(BASE, [2n, 0n])).toEqual(planCollection(BASE, [0n, 2n]));
  });

  test('a base whose pieces do not end at the cut where the file is continued is refused', () => {
    expect(() => planCollection({ cuts: BASE.cuts, pieces: BASE.pieces.slice(1) }, [0n])).toThrow(/no piece of the collection ends at its cut at byte 1$/);
  });

  test('the steps cover every key once, in order: a gap between two holds no key of the base nor a changed one', () => {
    const baseBlocksOf = new Set(baseBlocks(BASE).map((b) => b.block));
    for (const changed of [[0n], [1n], [3n], [5n], [0n, 2n], [1n, 2n], [0n, 4n, 9n]]) {
      const plan = planCollection(BASE, changed);
      if (plan.kind !== 'write') throw new Error('a change writes the file');
      let from = plan.start?.lastBlock === undefined ? undefined : (plan.start.lastBlock + 1n) * K;
      for (const step of plan.steps) {
        if (from === undefined) expect(step.keys.from).toBeUndefined();
        else {
          expect(step.keys.from).toBeDefined();
          for (let b = from / K; b < step.keys.from! / K; b++) {
            expect(baseBlocksOf.has(b) || changed.includes(b)).toBe(false);
          }
        }
        from = step.keys.to;
      }
      expect(from).toBeUndefined();
    }
  });
});
