/**
 * One error shape for both APIs (DECISIONS.md): thrown as HttpError anywhere inside,
 * turned into the JSON body once, at the edge, by errorBody(). The statuses and the body are documented
 * by the tables below (the OpenAPI document is made from them).
 */
import { z } from 'zod';

/** Every error status the APIs answer: its reason phrase and when it is sent. */
export const ERROR_STATUSES: Record<number, { reason: string; when: string }> = {
  400: { reason: 'Bad Request', when: 'A parameter, path segment or request body cannot be read. userMessage names it; the hints give a valid example.' },
  404: { reason: 'Not Found', when: 'No such path, or no resource with that id (or none that matches the filters given).' },
  405: { reason: 'Method Not Allowed', when: 'A method the path does not answer; the Allow header lists those it does.' },
  406: { reason: 'Not Acceptable', when: 'The Accept header, contentType parameter or path extension names only media types this path cannot produce; the hints list those it can.' },
  410: { reason: 'Gone', when: "The change API's since names a snapshot, or a time, older than the kept snapshot history; the hints name the oldest snapshot it can answer." },
  413: { reason: 'Payload Too Large', when: 'The request body is larger than the API reads (the connection is closed).' },
  431: { reason: 'Request Header Fields Too Large', when: 'The request line or headers are longer than the server reads (16 KB).' },
  500: { reason: 'Internal Server Error', when: 'An unexpected failure of the server; never sent for bad input.' },
  503: { reason: 'Service Unavailable', when: 'This build has no database for the API, a query or chart ran past its time limit, or too many requests are waiting (Retry-After says when to try again).' },
};

/** The JSON body of every error response. */
export const errorBodySchema = z
  .strictObject({
    statusCode: z.number().int().min(400).max(599).describe('The HTTP status code.'),
    reason: z.string().describe('Its reason phrase, for example Not Found.'),
    userMessage: z.string().describe('What went wrong, naming the parameter, path or body field at fault.'),
    developerMessage: z.string().optional().describe('More detail for a developer; left out when empty. Never a stack trace or SQL text.'),
    hints: z.array(z.string()).optional().describe('What would work instead, for example "A valid example: ..."; left out when empty.'),
  })
  .describe('The one error body of both APIs.');

export class HttpError extends Error {
  readonly status: number;
  readonly userMessage: string;
  readonly developerMessage: string | undefined;
  readonly hints: string[];
  readonly headers: Record<string, string>;

  constructor(status: number, userMessage: string, opts: { hints?: string[]; developerMessage?: string; headers?: Record<string, string> } = {}) {
    super(userMessage);
    this.status = status;
    this.userMessage = userMessage;
    this.developerMessage = opts.developerMessage;
    this.hints = opts.hints ?? [];
    this.headers = opts.headers ?? {};
  }
}

/** Errors of the site's files, never of an API path (so not in the OpenAPI document): a byte range outside a file (core/http/range.ts). */
const SITE_FILE_REASONS: Record<number, string> = { 416: 'Range Not Satisfiable' };

export function reasonPhrase(status: number): string {
  return ERROR_STATUSES[status]?.reason ?? SITE_FILE_REASONS[status] ?? 'Error';
}

export type ErrorBody = z.infer<typeof errorBodySchema>;

export function errorObject(e: HttpError): ErrorBody {
  const body: ErrorBody = { statusCode: e.status, reason: reasonPhrase(e.status), userMessage: e.userMessage };
  if (e.developerMessage) body.developerMessage = e.developerMessage;
  if (e.hints.length > 0) body.hints = e.hints;
  return body;
}

export function errorBody(e: HttpError): string {
  return JSON.stringify(errorObject(e));
}

/** A parameter that cannot be read: 400 naming the parameter, with a valid example. */
export function badParameter(name: string, problem: string, example: string, more: string[] = []): HttpError {
  return new HttpError(400, `Parameter '${name}' ${problem}`, { hints: [`A valid example: ${example}`, ...more] });
}

export function notFound(userMessage: string, hints: string[] = []): HttpError {
  return new HttpError(404, userMessage, { hints });
}
