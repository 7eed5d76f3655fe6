/** Clients that do not read what they are sent, for the back-pressure and slow-client tests. */
import { connect, type Socket } from 'node:net';

/** Sends `GET path` (default `/`, with `headers`) to 127.0.0.1:`port` on a raw socket and reads nothing: the socket stays paused. */
export function stalledGet(port: number, headers: Record<string, string> = {}, path = '/'): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
  return socket;
}

/** Resumes a paused socket, reads for `ms`, and gives the bytes received. */
export async function readFor(socket: Socket, ms: number): Promise<number> {
  let got = 0;
  socket.on('data', (d: Buffer) => (got += d.length));
  socket.resume();
  await new Promise((r) => setTimeout(r, ms));
  return got;
}
