/**
 * The HTTP side shared by the benches' PostgreSQL servers (bench/pg-server.ts, bench/pg-timeseries-server.ts):
 * a node:http server that runs `answer` per request, answers a failure with snapcat's one JSON error body
 * (a 500 is logged with its stack), listens on loopback, and closes together with its pool.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type pg from 'pg';
import { errorObject, HttpError } from '../../core/http/errors.ts';

export interface PgHttpServer {
  server: Server;
  close(): Promise<void>;
}

export async function servePg(
  pool: pg.Pool,
  answer: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  opts: { port: number; host?: string },
): Promise<PgHttpServer> {
  const server = createServer((req, res) => {
    answer(req, res).catch((e: unknown) => {
      const err = e instanceof HttpError ? e : new HttpError(500, 'Internal error', { developerMessage: (e as Error).message });
      if (err.status === 500) console.error(`${req.url}: ${(e as Error).stack}`);
      if (res.headersSent) return void res.destroy();
      const body = JSON.stringify(errorObject(err));
      res.writeHead(err.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port, opts.host ?? '127.0.0.1', resolve));
  return {
    server,
    async close() {
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}
