/**
 * The worker thread of background-writes.ts: writes and links the files of each batch it is sent, in order, and
 * answers each batch with `{ done }` or, at the first failure, `{ error }` (and does nothing more after that).
 */
import { linkSync, writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { Batch, BatchAnswer } from './background-writes.ts';

let failed = false;

parentPort!.on('message', (b: Batch) => {
  if (failed) return;
  const bytes = new Uint8Array(b.bytes);
  let at = 0;
  try {
    for (let i = 0; i < b.paths.length; i++) {
      const from = b.links[i];
      if (from) {
        linkSync(from, b.paths[i]!);
      } else {
        writeFileSync(b.paths[i]!, bytes.subarray(at, b.ends[i]!));
        at = b.ends[i]!;
      }
    }
    parentPort!.postMessage({ done: b.paths.length } satisfies BatchAnswer);
  } catch (e) {
    failed = true;
    parentPort!.postMessage({ error: (e as Error).message } satisfies BatchAnswer);
  }
});
