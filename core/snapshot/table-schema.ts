/**
 * The vocabulary for describing snapshot tables: one Parquet file per table,
 * each column with a kind, a key role and a meaning. The same descriptions
 * drive validation (build-scripts/snapshot/validate.ts), the demo generator
 * and the operator documentation, so they cannot drift apart.
 */

/** Column kinds, deliberately coarser than Parquet types: a kind accepts every physical type that holds it exactly. */
export type ColumnKind =
  | 'integer' // any signed or unsigned integer type
  | 'double' // DOUBLE or FLOAT (integers accepted too)
  | 'text' // VARCHAR
  | 'json' // VARCHAR holding a JSON document
  | 'boolean'
  | 'timestamp'; // TIMESTAMP (any precision) or TIMESTAMP WITH TIME ZONE, always UTC

export interface ColumnSpec {
  name: string;
  kind: ColumnKind;
  /** Null allowed. Default false. */
  nullable?: boolean;
  /** Part of the table's primary key. */
  key?: boolean;
  /** Values unique within the table (besides the key). */
  unique?: boolean;
  /** Foreign key: `table.column` that every non-null value must exist in. */
  references?: string;
  /** A regular expression every non-null value must match (text columns). */
  pattern?: string;
  /**
   * A name, path, code or label (text columns): no control characters (U+0000-U+001F, U+007F), so it stays one
   * line in a checksum report, a CSV row or a log. Every text column refuses NUL (a reference by the column it names).
   */
  singleLine?: boolean;
  meaning: string;
}

export interface TableSpec {
  /** Table name; the file is `<name>.parquet` in the snapshot folder. */
  name: string;
  meaning: string;
  columns: ColumnSpec[];
  /** Row rules: SQL boolean expressions over the table's columns that every row must satisfy. */
  rules?: RowRule[];
}

export interface RowRule {
  /** A DuckDB SQL boolean expression over this table's columns, for example `end_datetime >= start_datetime`. */
  holds: string;
  /** The rule in words, used in the error message and the docs. */
  meaning: string;
}

/** The APIs a snapshot can serve; `snapshot.json` lists the ones it holds tables for. */
export const API_NAMES = ['radarnet-mirror-v3', 'timeseries-v1'] as const;
export type ApiName = (typeof API_NAMES)[number];

/** The snapshot's own description, `snapshot.json`. */
export interface SnapshotManifest {
  /** Format version of the snapshot folder; this code reads version 1. */
  format_version: 1;
  /** A human name, for example `demo-2024-01-01-30d`. */
  name: string;
  /** The instant the snapshot was taken, ISO 8601 UTC. Every "now" in the APIs means this instant. */
  taken_at: string;
  /** The APIs whose tables the snapshot holds. */
  apis: ApiName[];
}

export const SNAPSHOT_FORMAT_VERSION = 1;
export const MANIFEST_FILE = 'snapshot.json';

export function keyColumns(table: TableSpec): ColumnSpec[] {
  return table.columns.filter((c) => c.key);
}
