/**
 * The real SuperDARN reference data the radar demo is built on: `radars.csv` (one row per
 * radar: stid, codes, name, operator institute and its country, position, first/end date,
 * status from RST's radar.dat) and the hardware-description files `hdw/hdw.dat.<code>`
 * (their real sha1 and their latest line, which gives the field-of-view geometry).
 *
 * Database ids: radars 1..49 by stid; countries and institutes by name.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Folder of the real reference data (README.md there describes it): a copy of the public SuperDARN files
 * ships with the repo, so a fresh clone generates the demo offline. SNAPCAT_SUPERDARN_DATA points elsewhere.
 */
export const SUPERDARN_DATA_DIR = process.env['SNAPCAT_SUPERDARN_DATA'] ?? join(import.meta.dirname, '..', 'data', 'superdarn');

/** Institutes that run mirror nodes and forward other institutes' data. */
export const MIRROR_NODE_INSTITUTES = ['University of Saskatchewan', 'British Antarctic Survey'] as const;

export interface HdwLine {
  validFrom: string;
  latitude: number;
  longitude: number;
  boresight: number;
  beamSeparation: number;
  maxRangeGates: number;
  maxBeams: number;
}

export interface Radar {
  /** Database id, 1..49 in stid order. */
  id: number;
  stid: number;
  code: string;
  name: string;
  /** Legacy one-letter code of pre-2006 file names, or null. */
  letter: string | null;
  institute: string;
  latitude: number;
  longitude: number;
  /** radar.dat status: 1 operational, 0 offline or test, -1 decommissioned. */
  rstStatus: 1 | 0 | -1;
  /** First day of data, UTC midnight, seconds since 1970. */
  firstS: number;
  /** End of the last day of data (next UTC midnight), seconds; null while operating. */
  endS: number | null;
  hdwFileName: string;
  hdwSha1: string;
  hdw: HdwLine;
}

export interface Country {
  id: number;
  name: string;
  iso: string;
}

export interface Institute {
  id: number;
  name: string;
  countryId: number;
}

export interface ReferenceData {
  radars: Radar[];
  countries: Country[];
  institutes: Institute[];
  /** Institute id by name. */
  instituteId: Map<string, number>;
}

/** Minimal RFC 4180 reader: quoted fields with doubled quotes, `\n` or `\r\n` rows. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); field = '';
      if (row.length > 1 || row[0] !== '') rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row); }
  return rows;
}

/** The last (latest valid-from) line of a hardware-description file. */
export function parseHdw(text: string, fileName: string): HdwLine {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  const last = lines.at(-1);
  if (!last) throw new Error(`${fileName}: no hardware line`);
  const f = last.split(/\s+/);
  if (f.length !== 22) throw new Error(`${fileName}: expected 22 fields, got ${f.length}: ${last}`);
  const n = (i: number): number => {
    const v = Number(f[i]);
    if (!Number.isFinite(v)) throw new Error(`${fileName}: field ${i + 1} is not a number: ${last}`);
    return v;
  };
  return {
    validFrom: `${f[2]} ${f[3]}`,
    latitude: n(4),
    longitude: n(5),
    boresight: n(7),
    beamSeparation: n(9),
    maxRangeGates: n(20),
    maxBeams: n(21),
  };
}

function dateSeconds(iso: string): number {
  const t = Date.parse(`${iso}T00:00:00Z`);
  if (Number.isNaN(t)) throw new Error(`radars.csv: bad date '${iso}'`);
  return t / 1000;
}

function rstStatus(text: string): 1 | 0 | -1 {
  if (text === '1' || text === '0' || text === '-1') return Number(text) as 1 | 0 | -1;
  throw new Error(`radars.csv: bad status '${text}'`);
}

/**
 * Reads radars.csv and the hdw files.
 */
export function readReferenceData(dir = SUPERDARN_DATA_DIR): ReferenceData {
  const [header, ...body] = parseCsv(readFileSync(join(dir, 'radars.csv'), 'utf8'));
  if (!header) throw new Error('radars.csv is empty');
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`radars.csv: no column '${name}'`);
    return i;
  };
  const c = {
    stid: col('stid'), code: col('code'), name: col('name'), institute: col('institute'), country: col('country'),
    iso: col('iso'), lat: col('lat'), lon: col('lon'), first: col('first_date'), status: col('status'),
    hdw: col('hdw_filename'), end: col('end_date'), letter: col('legacy_letter'),
  };
  const countryOfInstitute = new Map<string, { name: string; iso: string }>();
  for (const r of body) {
    const institute = r[c.institute]!;
    if (r[c.country] && r[c.iso]) countryOfInstitute.set(institute, { name: r[c.country]!, iso: r[c.iso]! });
  }
  const partial = body
    .map((r) => {
      const code = r[c.code]!;
      const hdwFileName = r[c.hdw]!;
      const hdwText = readFileSync(join(dir, 'hdw', hdwFileName));
      const end = r[c.end]!;
      return {
        stid: Number(r[c.stid]),
        code,
        name: r[c.name]!,
        letter: r[c.letter] ? r[c.letter]! : null,
        institute: r[c.institute]!,
        latitude: Number(r[c.lat]),
        longitude: Number(r[c.lon]),
        rstStatus: rstStatus(r[c.status]!),
        firstS: dateSeconds(r[c.first]!),
        endS: end ? dateSeconds(end) + 86_400 : null,
        hdwFileName,
        hdwSha1: createHash('sha1').update(hdwText).digest('hex'),
        hdw: parseHdw(hdwText.toString('utf8'), hdwFileName),
      };
    })
    .sort((a, b) => a.stid - b.stid);
  const radars: Radar[] = partial.map((r, i) => ({ id: i + 1, ...r }));
  if (radars.length !== 49) throw new Error(`radars.csv: expected 49 radars, got ${radars.length}`);

  // Institutes without a country (only the test radar's "United Nations of SuperDARN"): the country
  // of the radar's site; the test radar has none either, but it sits at Goose Bay, so Goose Bay's.
  const siteCountry = col('site_country');
  const siteIso = col('site_iso');
  for (const r of body) {
    const institute = r[c.institute]!;
    if (countryOfInstitute.has(institute)) continue;
    const site = r[siteCountry] ? r : body.find((o) => o[c.code] === 'gbr');
    if (!site?.[siteCountry] || !site[siteIso]) throw new Error(`radars.csv: no country for institute '${institute}'`);
    countryOfInstitute.set(institute, { name: site[siteCountry]!, iso: site[siteIso]! });
  }
  for (const m of MIRROR_NODE_INSTITUTES) if (!countryOfInstitute.has(m)) throw new Error(`radars.csv: mirror node institute '${m}' missing`);

  const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  const countryList = [...new Map([...countryOfInstitute.values()].map((v) => [v.iso, v])).values()].sort((a, b) => byName(a.name, b.name));
  const countries: Country[] = countryList.map((v, i) => ({ id: i + 1, name: v.name, iso: v.iso }));
  const countryId = new Map(countries.map((v) => [v.iso, v.id]));
  const institutes: Institute[] = [...countryOfInstitute.keys()].sort(byName).map((name, i) => ({
    id: i + 1,
    name,
    countryId: countryId.get(countryOfInstitute.get(name)!.iso)!,
  }));
  return { radars, countries, institutes, instituteId: new Map(institutes.map((v) => [v.name, v.id])) };
}
