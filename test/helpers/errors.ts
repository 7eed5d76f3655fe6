import { HttpError } from '../../core/http/errors.ts';

/** The HttpError `fn` throws (fails the test when it throws nothing or something else). */
export function httpErrorOf(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (e) {
    if (e instanceof HttpError) return e;
    throw e;
  }
  throw new Error('no error thrown');
}
