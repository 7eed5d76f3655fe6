/**
 * Data answers of the Timeseries API that need more than a query string: sending bytes, and
 * `POST /api/v1/timeseries/getData` with its JSON body (at most MAX_POST_BYTES: more is 413; a body that is
 * not JSON is 400). The body is read whatever its Content-Type says.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from '../core/http/errors.ts';
import { JSON_TYPE } from '../core/timeseries/charts.ts';
import { answerData } from '../core/timeseries/data.ts';
import { MAX_POST_BYTES, POST_EXAMPLE, readPostData } from '../core/timeseries/data-request.ts';
import { API_HEADERS } from './respond.ts';
import type { ServedBuild } from './served-build.ts';

export type Timeseries = NonNullable<ServedBuild['timeseries']>;

/** Sends a JSON body held as bytes (HEAD too: node sends no body for HEAD, the compressor needs it for the length). */
export function sendJsonBytes(_req: IncomingMessage, res: ServerResponse, body: Uint8Array): void {
  res.writeHead(200, { ...API_HEADERS, 'Content-Type': JSON_TYPE, 'Content-Length': body.length });
  res.end(body);
}

function tooLarge(): HttpError {
  return new HttpError(413, `The request body is larger than ${MAX_POST_BYTES} bytes`, {
    hints: ['Ask for fewer timeseries per request', `A valid example: ${POST_EXAMPLE}`],
    headers: { Connection: 'close' },
  });
}

/** The request body, at most `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function parseJsonBody(body: Buffer, example = POST_EXAMPLE): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw new HttpError(400, `The request body is not JSON: ${(e as Error).message}`, { hints: [`A valid example: ${example}`] });
  }
}

export async function handlePostData(req: IncomingMessage, res: ServerResponse, ts: Timeseries, query: URLSearchParams): Promise<void> {
  const body = parseJsonBody(await readBody(req, MAX_POST_BYTES));
  const request = readPostData(body, query, ts.catalogue, ts.profile);
  const bytes = await answerData(ts.catalogue, ts.series.source, request);
  sendJsonBytes(req, res, bytes);
}
