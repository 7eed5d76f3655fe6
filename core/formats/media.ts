/** A media type as a file or an answer carries it. */
export interface MediaType {
  /** `text/csv`, as `Accept`, `contentType` and the docs name it. */
  type: string;
  /** Text in UTF-8: the Content-Type names the charset (nginx adds it with its `charset` directive). */
  utf8: boolean;
}

/** The Content-Type header of a media type: `text/csv; charset=utf-8`, `application/json`. */
export function contentTypeOf(m: MediaType): string {
  return m.utf8 ? `${m.type}; charset=utf-8` : m.type;
}
