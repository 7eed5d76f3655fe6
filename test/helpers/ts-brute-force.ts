/**
 * The timeseries demo build (`tsBuild`) served by a real endpoint, with an in-memory DuckDB to check its answers
 * by brute force over the snapshot's (`tsSnapshot`) parquet files.
 */
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { inject } from 'vitest';
import { startEndpoint, type Served } from './servers.ts';

export async function startTsEndpointAndDb(): Promise<{ s: Served; db: DuckDBConnection; close(): Promise<void> }> {
  const s = await startEndpoint(inject('tsBuild'));
  const duck = await DuckDBInstance.create(':memory:');
  const db = await duck.connect();
  const close = async () => {
    await s.close();
    db.closeSync();
    duck.closeSync();
  };
  return { s, db, close };
}

/** A table of the timeseries demo snapshot, as DuckDB reads its parquet file. */
export const tsParquet = (table: string) => `read_parquet('${join(inject('tsSnapshot'), `${table}.parquet`).replaceAll("'", "''")}')`;
