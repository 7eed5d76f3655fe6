/** A strict RFC 4180 reader, to check that CSV output parses back (an independent implementation). */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  let atFieldStart = true;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        field += c;
        i++;
      }
    } else if (c === '"' && atFieldStart) {
      quoted = true;
      atFieldStart = false;
      i++;
    } else if (c === delimiter) {
      row.push(field);
      field = '';
      atFieldStart = true;
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      atFieldStart = true;
      i += 2;
    } else if (c === '\n' || c === '\r') {
      throw new Error(`bare line break at ${i}`);
    } else {
      field += c;
      atFieldStart = false;
      i++;
    }
  }
  if (field !== '' || row.length > 0) throw new Error('last record not terminated by CRLF');
  return rows;
}
