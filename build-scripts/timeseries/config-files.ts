/**
 * Reads the snapshot's timeseries configuration (`config/web_config-*.json`, each optional) and checks it
 * against the catalogue: a file that is not JSON, breaks its schema, or names an id the tables do not hold
 * fails the build with a message naming the file and field.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TIMESERIES_CONFIG_FILES, TimeseriesConfigError, configReferenceProblems, parseTimeseriesConfig, type TimeseriesConfig } from '../../core/snapshot/timeseries-config.ts';
import { TIMESERIES_CONFIG_DIR } from '../../core/snapshot/timeseries-tables.ts';
import type { Catalogue } from '../../core/timeseries/catalogue.ts';

export function readConfigFiles(snapshotDir: string): TimeseriesConfig {
  const files: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const name of Object.values(TIMESERIES_CONFIG_FILES)) {
    const path = join(snapshotDir, TIMESERIES_CONFIG_DIR, name);
    if (!existsSync(path)) continue;
    try {
      files[name] = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      problems.push(`${TIMESERIES_CONFIG_DIR}/${name}: not JSON: ${(e as Error).message}`);
    }
  }
  if (problems.length) throw new TimeseriesConfigError(problems);
  return parseTimeseriesConfig(files);
}

export function checkConfigReferences(cat: Catalogue): void {
  const problems = configReferenceProblems(cat.config, {
    phenomena: new Set(cat.ids.phenomena.keys()),
    timeseries: new Set(cat.ids.timeseries.keys()),
    referenceValues: new Set(cat.refValues.map((r) => r.id)),
  });
  if (problems.length) throw new TimeseriesConfigError(problems);
}
