/**
 * The snapshots page (site/pages/snapshots.astro): reads /snapshots.json and shows each kept snapshot with its
 * citable line (name, taken_at, the tree manifest's SHA-256, the URL) and a button that copies it. Run in the
 * browser because the manifest lists every page of the site: a page cannot hold the digest of a list that holds
 * the page (docs/tree-manifest.md). snapshots.json, which the manifest does not list, carries it.
 */
interface Snapshot {
  name: string;
  taken_at: string;
  base: string | null;
  manifestSha256: string | null;
  changes: { radar: Record<string, { added: number; changed: number; removed: number }>; alarms?: number; timeseries: { newObservations: number; statusChanges: number } } | null;
}

/** The citable line of a snapshot served at `origin`. */
export function citableLine(s: Snapshot, origin: string): string {
  const digest = s.manifestSha256 === null ? 'no manifest (a build without a static tree)' : `manifest SHA-256 ${s.manifestSha256}`;
  return `${s.name}, taken at ${s.taken_at}; ${digest}; ${origin}/ (verify: ${origin}/manifest.sha256, list: ${origin}/snapshots.json)`;
}

function summary(s: Snapshot): string {
  if (s.changes === null) return 'the first snapshot kept: no change set';
  const files = s.changes.radar['files'];
  const parts = [
    ...(files ? [`${files.added} files added, ${files.changed} changed, ${files.removed} removed`] : []),
    ...(s.changes.alarms ? [`${s.changes.alarms} new alarms`] : []),
    ...(s.changes.timeseries.newObservations ? [`${s.changes.timeseries.newObservations} new observations, ${s.changes.timeseries.statusChanges} status changes`] : []),
  ];
  return `since ${s.base}: ${parts.length ? parts.join('; ') : 'no changes'}`;
}

async function main(): Promise<void> {
  const list = document.getElementById('snapshot-list')!;
  const status = document.getElementById('snapshot-status')!;
  let doc: { keep: number; snapshots: Snapshot[] };
  try {
    const res = await fetch('/snapshots.json');
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    doc = (await res.json()) as typeof doc;
  } catch (e) {
    status.textContent = `The snapshot list could not be read: ${(e as Error).message}`;
    return;
  }
  status.textContent = `${doc.snapshots.length} snapshot${doc.snapshots.length === 1 ? '' : 's'} kept (at most ${doc.keep}), newest first.`;
  for (const [i, s] of doc.snapshots.entries()) {
    const item = document.createElement('li');
    const h = document.createElement('h2');
    h.textContent = `${s.name}${i === 0 ? ' (served)' : ''}`;
    const p = document.createElement('p');
    p.textContent = summary(s);
    const line = document.createElement('code');
    line.className = 'citable';
    line.id = `cite-${i}`;
    line.textContent = citableLine(s, location.origin);
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', `Copy the citable line of ${s.name}`);
    button.addEventListener('click', () => {
      void navigator.clipboard.writeText(line.textContent ?? '').then(
        () => (button.textContent = 'Copied'),
        () => {
          // no clipboard (an insecure origin): select the line for a manual copy
          const range = document.createRange();
          range.selectNodeContents(line);
          getSelection()?.removeAllRanges();
          getSelection()?.addRange(range);
          button.textContent = 'Selected: copy with Ctrl+C';
        },
      );
    });
    const row = document.createElement('p');
    row.className = 'cite-row';
    row.append(line, ' ', button);
    item.append(h, p, row);
    list.append(item);
  }
}

void main();
