/** The build's progress line (build-scripts/lib/progress.ts): an honest file total, and validation's detail. */
import { describe, expect, test } from 'vitest';
import { Progress } from '../../build-scripts/lib/progress.ts';

/** A pipe that keeps what is written (no TTY: a line per draw, at most every 5 s but for `begin`). */
function sink(): NodeJS.WriteStream & { lines: string[] } {
  const lines: string[] = [];
  return { isTTY: false, lines, write: (t: string) => (lines.push(t), true) } as unknown as NodeJS.WriteStream & { lines: string[] };
}

describe('Progress', () => {
  test('validation: no file count before the first file, and the detail of the step', () => {
    const out = sink();
    const p = new Progress(out);
    p.begin('validating snapshot');
    expect(out.lines.at(-1)).toMatch(/^validating snapshot \| \d+\.\d s\n$/);
    p.detail('observations.parquet: uniqueness of timeseries_id, timestamp, pass 3 of 12 45%');
    expect(p.text()).toMatch(/^validating snapshot - observations\.parquet: uniqueness of timeseries_id, timestamp, pass 3 of 12 45% \| \d+\.\d s$/);
    expect(p.text()).not.toContain('files');
    // the next step drops the detail
    p.begin('radar database: files');
    expect(p.text()).toMatch(/^radar database: files \| \d+\.\d s$/);
  });

  test('a phase that said how many files it writes counts against that; the others show no total', () => {
    const p = new Progress(sink());
    p.begin('radar tree: fingerprinting records');
    p.expectFiles('radar tree', 3);
    p.begin('radar tree: /files');
    p.wrote(100);
    p.wrote(100);
    expect(p.text()).toMatch(/^radar tree: \/files \| 2\/3 files \(2 in all\), 0\.0 MB, \d+ files\/s(, ~\d+ s left)?, \d+\.\d s$/);
    p.wrote(100);
    expect(p.text()).toContain('| 3/3 files (3 in all)');
    expect(p.text()).not.toContain('left');
    // more than it said: no total from then on, never 4/3
    p.wrote(100);
    expect(p.text()).toMatch(/\| 4 files, 0\.0 MB, \d+ files\/s, /);
    // a phase of its own count (the charts, said before the phase began), then one with none (downloads)
    p.expectFiles('timeseries charts', 2);
    p.begin('timeseries charts: 2 charts');
    p.wrote(1e6);
    expect(p.text()).toContain('| 1/2 files (5 in all), 1.0 MB');
    p.begin('downloads: files');
    p.wrote(1e6);
    p.wrote(1e6);
    expect(p.text()).toMatch(/^downloads: files \| 7 files, 3\.0 MB, /);
    expect(p.text()).not.toMatch(/\d+\/\d+ files/);
  });

  test('quiet draws nothing', () => {
    const out = sink();
    const p = new Progress(out, true);
    p.begin('validating snapshot');
    p.detail('x');
    p.wrote(1);
    expect(out.lines).toEqual([]);
  });
});
