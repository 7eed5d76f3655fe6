/**
 * Writes the Timeseries API's static tree (core/timeseries/static-tree.ts): every parameter-free answer,
 * computed by the same functions, from the same catalogue and the same queries, as the endpoint's live
 * answers, with the request parameters read by the same parsers (`expanded=true` or nothing), so the bytes
 * are the same.
 */
import { collectionAnswer, indexAnswer, itemAnswer } from '../../core/timeseries/answer.ts';
import type { Catalogue } from '../../core/timeseries/catalogue.ts';
import { answerData, type SeriesSource } from '../../core/timeseries/data.ts';
import { readGetData } from '../../core/timeseries/data-request.ts';
import { readCollectionParams, readItemParams } from '../../core/timeseries/params.ts';
import { staticEntries, staticFile } from '../../core/timeseries/static-tree.ts';
import type { TimeseriesProfile } from '../../core/timeseries/profile.ts';
import type { Progress } from '../lib/progress.ts';
import type { TreeWriter } from '../lib/tree-writer.ts';

export interface TimeseriesTreeContext {
  cat: Catalogue;
  /** Where the observations are read: the build's series store, as the endpoint reads them. */
  source: SeriesSource;
  writer: TreeWriter;
  progress: Progress;
  /** The shapes of the tree (core/timeseries/profile.ts). */
  profile: TimeseriesProfile;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function query(expanded: boolean): URLSearchParams {
  return new URLSearchParams(expanded ? 'expanded=true' : '');
}

export async function writeTimeseriesTree(ctx: TimeseriesTreeContext): Promise<void> {
  const { cat, writer } = ctx;
  const { source } = ctx;
  let step = '';
  for (const e of staticEntries(cat)) {
    const kind = e.kind === 'item' ? `${e.collection}/{id}` : e.kind === 'collection' ? e.collection : e.kind;
    if (kind !== step) ctx.progress.begin(`timeseries tree: ${(step = kind)}`);
    if (e.kind === 'item') {
      const body = itemAnswer(cat, e.collection, e.index, readItemParams(query(false), e.collection));
      await writer.write(staticFile(e.apiPath, false), body);
      await writer.link(staticFile(e.apiPath, false), staticFile(e.apiPath, true));
      continue;
    }
    for (const expanded of [false, true]) {
      const q = query(expanded);
      let body: string;
      if (e.kind === 'index') body = indexAnswer(cat, expanded, ctx.profile);
      else if (e.kind === 'collection') body = collectionAnswer(cat, e.collection, readCollectionParams(q, e.collection), e.apiPath, q).body;
      else body = UTF8.decode(await answerData(cat, source, readGetData(q, cat, e.index).request));
      await writer.write(staticFile(e.apiPath, expanded), body);
    }
  }
}
