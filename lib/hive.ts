/**
 * Hive-partitioned Parquet: a table stored as a folder of Parquet files below `key=value` folders
 * (`files/year=1995/radar=gbr/data_0.parquet`). DuckDB reads each `key=value` folder name as a column of the
 * rows below it (`hive_partitioning = true`) and, given a filter on such a column, opens only the matching files.
 */
import { readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** Every `*.parquet` file below a folder, at any depth, as absolute paths in sorted order (the order DuckDB numbers them in). */
export function parquetFilesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.parquet'))
    .map((e) => resolve(join(e.parentPath, e.name)))
    .sort();
}

/**
 * The keys of the `key=value` folder names in a path. DuckDB reads every one of them, above the table's folder
 * too, as a partition column of the files below (a folder `/data/id=7/` would override a column `id`).
 */
export function hiveKeysIn(path: string): string[] {
  return path
    .split(/[\\/]/)
    .flatMap((part) => {
      const at = part.indexOf('=');
      return at > 0 ? [part.slice(0, at)] : [];
    });
}

/** A file's path below its table folder, `year=1995/radar=gbr/data_0.parquet`, for messages. */
export function pathInTable(tableDir: string, file: string): string {
  return relative(tableDir, file).split(sep).join('/');
}

/**
 * Throws when a folder's path has a `key=value` folder name: DuckDB would read it as a column of every
 * partitioned table below, replacing a column of that name.
 */
export function assertNoHiveKeys(folder: string): void {
  const keys = hiveKeysIn(resolve(folder));
  if (keys.length > 0) {
    throw new Error(`${folder}: the folder name ${keys.map((k) => `\`${k}=...\``).join(', ')} in this path would be read as a column of the partitioned tables below it; move the build`);
  }
}
