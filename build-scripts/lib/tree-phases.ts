/**
 * The phases of the radar id files in the tree state (tree-state.ts), each offering only what may come next, so that
 * a wrong order does not compile: TreeState.fingerprintKeys (every resource's keys, compared with the base's) →
 * KeysCompared.registerTags (every tag of id files, and which of the base's stand for this build's) → over a base,
 * HashingIdFiles (every id file hashed in SQL) → ComparedIdFiles (write the changed ones); into an empty folder,
 * FreshIdFiles (write them all, recorded as they are written). Collections are recorded in either writing phase.
 * The TreeState itself (open, keysSql, totals, finish) is the build's, before and after the radar tree.
 */
import type { CollectionState } from './tree-state.ts';

/**
 * A tag of id files (core/tree/tags.ts) as the tree state records it: its resource, what makes its files from its
 * key's records (write-tree.ts idFileSignature), and their paths, `prefix || k || suffix`.
 */
export interface IdFileTagState {
  tag: string;
  res: string;
  signature: string;
  prefix: string;
  suffix: string;
}

/** Of one tag: its files that differ from the base's (or are new), of all its files. */
export interface IdFileChanges {
  changed: number;
  total: number;
}

/** Records id files as they are written (FreshIdFiles.idFileRecorder). */
export interface IdFileRecorder {
  add(k: bigint, md5: Buffer, bytes: number): void;
  close(): void;
}

/** Every resource's keys fingerprinted and compared with the base's. */
export interface KeysCompared {
  /**
   * Records every tag of id files, for the next build: its files are `prefix || k || suffix`, made with
   * `signature`. Over a base, a tag whose signature is the base's is reusable: the base's rows of the tag stand for
   * this build's wherever their key's records are unchanged.
   */
  registerTags(tags: readonly IdFileTagState[]): Promise<HashingIdFiles | FreshIdFiles>;
}

/** Over a base: every tag's id files are hashed in SQL (of a reusable tag, only those of changed keys), then compared. */
export interface HashingIdFiles {
  readonly kind: 'hashing';
  /** The tags registerTags found reusable. */
  readonly reusable: ReadonlySet<string>;
  /** The SQL of the changed keys of resource `res`, for `WHERE k IN (…)`. */
  changedKeysOfSql(res: string): string;
  /** Adds the id files of `tag`: `contentSql` yields `(k, c)`, a key and the file's whole text. */
  addIdFiles(tag: string, contentSql: { sql: string; params: Record<string, unknown> }): Promise<void>;
  /** Adds the id files of tag `from` (added before) under `tag`: the same files under other names (hard links). */
  addLinkedIdFiles(tag: string, from: string): Promise<void>;
  /** After every tag's files are added: which differ from the base's, per tag. */
  compareIdFiles(): Promise<ComparedIdFiles>;
}

/** Records the collection files of this build, for the next one (write-tree.ts writeCollection). */
export interface CollectionsPhase {
  addCollection(path: string, state: CollectionState): void;
}

/** Over a base, the id files compared: the writer writes those that changed, and the collections' changed blocks. */
export interface ComparedIdFiles extends CollectionsPhase {
  readonly kind: 'compared';
  /** Per tag: its files that differ from the base's; all of them when `changed` equals `total`. */
  readonly changes: ReadonlyMap<string, IdFileChanges>;
  /** The SQL of the keys of a tag's changed files, for `WHERE k IN (…)`. */
  changedKeysSql(tag: string): string;
  /** The SQL of every key of a tag whose rows are all this build's own (none kept). */
  idKeysSql(tag: string): string;
  /** The blocks (`k / KEYS_PER_CUT`) of the keys of `res` whose records changed from the base; ascending. */
  changedBlocks(res: string): Promise<bigint[]>;
  /** The base's state of the collection file at `path`, if it was made with `signature` (its records' SQL and frame). */
  collectionBase(path: string, signature: string): CollectionState | undefined;
}

/** Into an empty folder: every id file is new, written and recorded as it is written. */
export interface FreshIdFiles extends CollectionsPhase {
  readonly kind: 'fresh';
  /** Records the files of `tag` as they are written: an appender of its rows. */
  idFileRecorder(tag: string): Promise<IdFileRecorder>;
  /** Adds the id files of tag `from` (recorded before) under `tag`: the same files under other names (hard links). */
  addLinkedIdFiles(tag: string, from: string): Promise<void>;
  /** The SQL of every key of a tag. */
  idKeysSql(tag: string): string;
}
