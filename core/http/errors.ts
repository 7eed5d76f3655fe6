/**
 * One error shape for both APIs (DECISIONS.md): thrown as HttpError anywhere inside,
 * turned into the JSON body once, at the edge, by errorBody().
 */

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  413: 'Payload Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

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

export function reasonPhrase(status: number): string {
  return REASONS[status] ?? 'Error';
}

export interface ErrorBody {
  statusCode: number;
  reason: string;
  userMessage: string;
  developerMessage?: string;
  hints?: string[];
}

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
