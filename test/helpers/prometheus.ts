/** Reading the Prometheus text format in tests: one sample's value by name and labels. */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the sample with this name and exactly these labels; undefined when there is none. */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = JSON.stringify(Object.entries(labels).sort());
  return samples(text).find((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === want)?.value;
}
