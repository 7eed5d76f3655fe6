/**
 * SQL with bound values, as every query builder of both APIs returns it: the text names parameters (`$name`),
 * the values travel beside it, never pasted in.
 */
export type SqlValue = string | number | boolean;

export interface SqlFragment {
  sql: string;
  params: Record<string, SqlValue>;
}

/**
 * The conjunction of the fragments present (`true` for none), each in parentheses unless it is a bare column
 * (a flag such as `latest`), which needs none.
 */
export function and(fragments: (SqlFragment | undefined)[]): SqlFragment {
  const present = fragments.filter((f): f is SqlFragment => f !== undefined);
  return {
    sql: present.length === 0 ? 'true' : present.map((f) => (/^[a-z_][a-z0-9_]*$/.test(f.sql) ? f.sql : `(${f.sql})`)).join(' AND '),
    params: Object.assign({}, ...present.map((f) => f.params)),
  };
}
