/**
 * The command line of every npm-script entry point (build, demo-snapshot, validate, serve, start, docs, site,
 * partition-snapshot, nginx-config): node:util's parseArgs, strict, with
 * - `--help` / `-h`: every option with its default, the environment it reads, and examples, on stdout; exit 0;
 * - a bad command line (an unknown option, a missing value, a value for a switch, an unexpected argument, a
 *   missing required option, a value its check refuses): one line on stderr naming the option, with a hint to
 *   `--help`, and exit code 2 (a usage error, as the shells' builtins and GNU tools use it), no stack trace.
 */
import { parseArgs } from 'node:util';

export interface CliOption {
  type: 'string' | 'boolean';
  /** What the option does, one line. */
  describe: string;
  /** The value's placeholder in the help (`DIR`, `N`); default `VALUE`. */
  value?: string;
  default?: string | boolean;
  /** Shown as the default when `default` is not the whole story (an environment variable's value, say). */
  defaultText?: string;
  required?: boolean;
  /** A problem with the value (a sentence without the option's name), or undefined when it is good. */
  check?: (value: string) => string | undefined;
}

export interface CliSpec<O extends Record<string, CliOption>> {
  /** How it is run: `npm run build --`. */
  command: string;
  /** The usage line's arguments after the command: `--snapshot DIR [options]`. */
  usage: string;
  /** What the command does, a few lines. */
  summary: string;
  options: O;
  /** Positional arguments: their names for the help (`SNAPSHOT_DIR`), and how many are required. */
  positionals?: { names: string[]; describe: string; min: number; max: number };
  /** Environment variables read, with what they do. */
  env?: Record<string, string>;
  examples: string[];
}

type ValueOf<T extends CliOption> = T['type'] extends 'boolean' ? boolean : string;
export type CliValues<O extends Record<string, CliOption>> = {
  [K in keyof O]: O[K] extends { default: string | boolean } ? ValueOf<O[K]> : O[K] extends { required: true } ? ValueOf<O[K]> : ValueOf<O[K]> | undefined;
};

/** A bad command line: `message` is the one line printed (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The help text of a command. */
export function helpText<O extends Record<string, CliOption>>(spec: CliSpec<O>): string {
  const rows: [string, string][] = Object.entries(spec.options).map(([name, o]) => {
    const flag = o.type === 'string' ? `--${name} ${o.value ?? 'VALUE'}` : `--${name}`;
    const def = o.required ? 'required' : o.defaultText !== undefined ? `default: ${o.defaultText}` : o.type === 'boolean' ? 'default: off' : o.default !== undefined ? `default: ${o.default}` : 'default: none';
    return [flag, `${o.describe} (${def})`];
  });
  rows.push(['-h, --help', 'this help']);
  const width = Math.max(...rows.map(([f]) => f.length)) + 2;
  const lines = [`usage: ${spec.command} ${spec.usage}`.trimEnd(), '', ...spec.summary.split('\n'), ''];
  if (spec.positionals) lines.push('Arguments:', `  ${spec.positionals.names.join(' ').padEnd(width)}${spec.positionals.describe}`, '');
  lines.push('Options:', ...rows.map(([f, d]) => `  ${f.padEnd(width)}${d}`));
  if (spec.env && Object.keys(spec.env).length > 0) {
    const w = Math.max(...Object.keys(spec.env).map((k) => k.length)) + 2;
    lines.push('', 'Environment:', ...Object.entries(spec.env).map(([k, d]) => `  ${k.padEnd(w)}${d}`));
  }
  lines.push('', spec.examples.length === 1 ? 'Example:' : 'Examples:', ...spec.examples.map((e) => `  ${e}`));
  return lines.join('\n') + '\n';
}

/** Node's parseArgs message, in one line naming the option (`unknown option '--fulll'`). */
function usageMessage(e: NodeJS.ErrnoException): string {
  const m = e.message;
  const unknown = /^Unknown option '([^']+)'/.exec(m);
  if (unknown) return `unknown option '${unknown[1]}'`;
  const missing = /^Option '(-\w, )?(--[\w-]+)[^']*' argument missing/.exec(m);
  if (missing) return `option '${missing[2]}' needs a value`;
  const noArg = /^Option '(-\w, )?(--[\w-]+)' does not take an argument/.exec(m);
  if (noArg) return `option '${noArg[2]}' is a switch and takes no value`;
  const positional = /^Unexpected argument '([^']+)'/.exec(m);
  if (positional) return `unexpected argument '${positional[1]}'`;
  return m.split('\n')[0]!.replace(/\.$/, '');
}

/** Parses `argv`; throws UsageError on a bad command line. `--help` is returned as `help: true`. */
export function parseCommandLine<const O extends Record<string, CliOption>>(spec: CliSpec<O>, argv: string[]): { help: boolean; values: CliValues<O>; positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; default?: string | boolean; short?: string }> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, o] of Object.entries(spec.options)) options[name] = { type: o.type, ...(o.default !== undefined ? { default: o.default } : {}) };
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: spec.positionals !== undefined });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (code.startsWith('ERR_PARSE_ARGS')) throw new UsageError(usageMessage(e as NodeJS.ErrnoException));
    throw e;
  }
  if (parsed.values['help'] === true) return { help: true, values: parsed.values as CliValues<O>, positionals: parsed.positionals };
  for (const [name, o] of Object.entries(spec.options)) {
    const v = parsed.values[name];
    if (o.required && (v === undefined || v === '')) throw new UsageError(`option '--${name}' is required`);
    if (typeof v === 'string' && o.check) {
      const problem = o.check(v);
      if (problem !== undefined) throw new UsageError(`option '--${name}': ${problem}, not '${v}'`);
    }
  }
  const p = spec.positionals;
  if (p && (parsed.positionals.length < p.min || parsed.positionals.length > p.max)) {
    throw new UsageError(parsed.positionals.length < p.min ? `missing ${p.names.slice(parsed.positionals.length, p.min).join(' ')}` : `unexpected argument '${parsed.positionals[p.max]}'`);
  }
  return { help: false, values: parsed.values as CliValues<O>, positionals: parsed.positionals };
}

/**
 * The command line of this process (`process.argv`): prints the help and exits 0 on `--help`, prints one line
 * and exits 2 on a bad command line.
 */
export function commandLine<const O extends Record<string, CliOption>>(spec: CliSpec<O>, argv = process.argv.slice(2)): { values: CliValues<O>; positionals: string[] } {
  try {
    // --help wins over anything else on the line, a bad option included
    const r = argv.includes('--help') || argv.includes('-h') ? { help: true, values: {} as CliValues<O>, positionals: [] } : parseCommandLine(spec, argv);
    if (r.help) {
      process.stdout.write(helpText(spec));
      process.exit(0);
    }
    return r;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${spec.command.replace(/ --$/, '')}: ${e.message} (see: ${spec.command} --help)\n`);
    process.exit(2);
  }
}

/** Checks for numeric options. */
export const wholeNumber = (min: number, max: number) => (v: string) => (/^\d+$/.test(v) && Number(v) >= min && Number(v) <= max ? undefined : `must be a whole number from ${min} to ${max}`);
