/** The operator's documentation of the snapshot format, rendered from the same table specs validation uses. */
import { RADAR_TABLES } from './radar-tables.ts';
import { API_NAMES, type ColumnSpec, type TableSpec } from './table-schema.ts';
import { TABLES_BY_API } from './tables.ts';

export const KIND_TEXT: Record<string, string> = {
  integer: 'integer (any integer type)',
  double: 'double (or float, decimal, integer)',
  text: 'text (VARCHAR)',
  json: 'JSON text (VARCHAR)',
  boolean: 'boolean',
  timestamp: 'timestamp (UTC; any precision, with or without time zone)',
};

const cell = (s: string) => s.replaceAll('|', '\\|');

/** An example of `snapshot.json`. */
export const MANIFEST_EXAMPLE = '{ "format_version": 1, "name": "mirror-2024-01-31", "taken_at": "2024-01-31T00:00:00Z", "apis": ["radarnet-mirror-v3", "timeseries-v1"] }';

/** The fields of `snapshot.json` and their meanings; `values` are names, written as code. */
export const MANIFEST_FIELDS: { name: string; meaning: string; values?: readonly string[] }[] = [
  { name: 'format_version', meaning: '1' },
  { name: 'name', meaning: 'a name for humans and logs' },
  { name: 'taken_at', meaning: 'the instant the snapshot was taken, ISO 8601 UTC; every "now" of the APIs means this instant' },
  { name: 'apis', meaning: 'the APIs the snapshot holds tables for:', values: API_NAMES },
];

/** A column's key role and constraints, in words: `key`, `unique`, `null allowed`, a reference, a pattern. */
export function columnNotes(c: ColumnSpec): { text: string; code?: string }[] {
  return [
    c.key ? { text: 'key' } : undefined,
    c.unique ? { text: 'unique' } : undefined,
    c.nullable ? { text: 'null allowed' } : undefined,
    c.references ? { text: '→ ', code: c.references } : undefined,
    c.pattern ? { text: 'matches ', code: c.pattern } : undefined,
    c.singleLine ? { text: 'one line (no control characters)' } : undefined,
  ].filter((n) => n !== undefined);
}

function tableDoc(t: TableSpec): string {
  const rows = t.columns.map((c) => {
    const notes = columnNotes(c).map((n) => (n.code === undefined ? n.text : `${n.text}\`${n.code}\``));
    return `| \`${c.name}\` | ${KIND_TEXT[c.kind]} | ${cell(notes.join(', '))} | ${cell(c.meaning)} |`;
  });
  const rules = (t.rules ?? []).map((r) => `- ${r.meaning} (\`${cell(r.holds)}\`)`);
  return [`### \`${t.name}.parquet\``, '', t.meaning, '', '| column | type | key, constraints | meaning |', '|---|---|---|---|', ...rows, ...(rules.length ? ['', 'Every row:', ...rules] : []), ''].join('\n');
}

export function snapshotFormatDoc(): string {
  const apis = API_NAMES.map((api) => [`## Tables of \`${api}\``, '', ...TABLES_BY_API[api].map(tableDoc)].join('\n'));
  return `<!-- Generated from core/snapshot/*-tables.ts by \`npm run docs\`; do not edit by hand. -->
# Snapshot format

A snapshot is a folder: \`snapshot.json\` and one Parquet file per table (or a folder of them, see
[Partitioned tables](#partitioned-tables)). Snapshots are immutable; publish a new folder for new data and
build it. The build validates the snapshot first and stops, writing nothing, at the
first problem it finds (the message names the file, the column and the first bad row).

## \`snapshot.json\`

\`\`\`json
${MANIFEST_EXAMPLE}
\`\`\`

| field | meaning |
|---|---|
${MANIFEST_FIELDS.map((f) => `| \`${f.name}\` | ${f.meaning}${f.values ? ` ${f.values.map((a) => `\`${a}\``).join(', ')}` : ''} |`).join('\n')}

Types are checked by kind, not by exact Parquet type: any integer type serves an integer column. Extra columns
are allowed and ignored. Every key, unique, reference, pattern and row rule below is checked. No text holds a
NUL character, and a column marked "one line" (names, paths, codes, labels) holds no control character
(U+0000-U+001F, U+007F), so each stays one line in a checksum report, a CSV row or a log.

## Partitioned tables

A table may instead be a folder \`<name>/\` of Parquet files in hive layout, for tables too large for one
file: \`files/year=1995/radar=gbr/data_0.parquet\`, at any depth, every file with the same columns. Validation
and the build read all the files below the folder as one table. A \`key=value\` folder name is a partition key:
one that names a described column gives that column its value for the rows below (the files need not hold
it); any other (\`year\`, \`radar\`) only says where the rows are stored and is dropped. Keys are not checked
against the rows. Problems name the folder and the file below it: \`\`files/: column \`checksum\` row 3 of
year=2024/radar=sas/data_0.parquet (id=17): ...\`\`. A table is either a file or a folder, never both; a folder
above the snapshot must not be named like a described column (\`id=7/\`), as DuckDB would read it as one.
\`npm run partition-snapshot -- --snapshot IN --out OUT [--by year,radar]\` writes a copy of a radar snapshot
with its big tables (files, transfers, transfer_instances, temporal_coverage) partitioned by the year of the
record's start and the radar's code.

${apis.join('\n')}
Radar tables: ${RADAR_TABLES.length}. The timeseries API also reads JSON configuration from \`config/\` in the
snapshot folder (status intervals, rendering hints, chart pre-rendering, general settings), in the shapes of
52°North's configuration files.
`;
}
