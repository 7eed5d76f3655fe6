/** The operator's documentation of the snapshot format, rendered from the same table specs validation uses. */
import { RADAR_TABLES } from './radar-tables.ts';
import { API_NAMES, type TableSpec } from './table-schema.ts';
import { TABLES_BY_API } from './tables.ts';

const KIND_TEXT: Record<string, string> = {
  integer: 'integer (any integer type)',
  double: 'double (or float, decimal, integer)',
  text: 'text (VARCHAR)',
  json: 'JSON text (VARCHAR)',
  boolean: 'boolean',
  timestamp: 'timestamp (UTC; any precision, with or without time zone)',
};

const cell = (s: string) => s.replaceAll('|', '\\|');

function tableDoc(t: TableSpec): string {
  const rows = t.columns.map((c) => {
    const notes = [
      c.key ? 'key' : '',
      c.unique ? 'unique' : '',
      c.nullable ? 'null allowed' : '',
      c.references ? `→ \`${c.references}\`` : '',
      c.pattern ? `matches \`${c.pattern}\`` : '',
    ].filter(Boolean);
    return `| \`${c.name}\` | ${KIND_TEXT[c.kind]} | ${cell(notes.join(', '))} | ${cell(c.meaning)} |`;
  });
  const rules = (t.rules ?? []).map((r) => `- ${r.meaning} (\`${cell(r.holds)}\`)`);
  return [`### \`${t.name}.parquet\``, '', t.meaning, '', '| column | type | key, constraints | meaning |', '|---|---|---|---|', ...rows, ...(rules.length ? ['', 'Every row:', ...rules] : []), ''].join('\n');
}

export function snapshotFormatDoc(): string {
  const apis = API_NAMES.map((api) => [`## Tables of \`${api}\``, '', ...TABLES_BY_API[api].map(tableDoc)].join('\n'));
  return `<!-- Generated from core/snapshot/*-tables.ts by \`npm run docs\`; do not edit by hand. -->
# Snapshot format

A snapshot is a folder: \`snapshot.json\` and one Parquet file per table. Snapshots are immutable; publish a
new folder for new data and build it. The build validates the snapshot first and stops, writing nothing, at the
first problem it finds (the message names the file, the column and the first bad row).

## \`snapshot.json\`

\`\`\`json
{ "format_version": 1, "name": "mirror-2024-01-31", "taken_at": "2024-01-31T00:00:00Z", "apis": ["radarnet-mirror-v3", "timeseries-v1"] }
\`\`\`

| field | meaning |
|---|---|
| \`format_version\` | 1 |
| \`name\` | a name for humans and logs |
| \`taken_at\` | the instant the snapshot was taken, ISO 8601 UTC; every "now" of the APIs means this instant |
| \`apis\` | the APIs the snapshot holds tables for: ${API_NAMES.map((a) => `\`${a}\``).join(', ')} |

Types are checked by kind, not by exact Parquet type: any integer type serves an integer column. Extra columns
are allowed and ignored. Every key, unique, reference, pattern and row rule below is checked.

${apis.join('\n')}
Radar tables: ${RADAR_TABLES.length}. The timeseries API also reads JSON configuration from \`config/\` in the
snapshot folder (status intervals, rendering hints, chart pre-rendering, general settings), in the shapes of
52°North's configuration files.
`;
}
