/** The shared command-line parser of the npm scripts (lib/cli.ts): what a user's command line turns into. */
import { describe, expect, test } from 'vitest';
import { helpText, parseCommandLine, UsageError, wholeNumber, type CliOption, type CliSpec } from '../../lib/cli.ts';

const SPEC = {
  command: 'npm run thing --',
  usage: '--in DIR [--n 3] [--fast]',
  summary: 'Does a thing.',
  options: {
    in: { type: 'string', value: 'DIR', required: true, describe: 'where from' },
    n: { type: 'string', value: 'N', default: '3', describe: 'how many', check: wholeNumber(1, 9) },
    fast: { type: 'boolean', default: false, describe: 'go fast' },
    label: { type: 'string', describe: 'a label' },
  },
  env: { THING_HOME: 'where things live' },
  examples: ['npm run thing -- --in x'],
} as const satisfies CliSpec<Record<string, CliOption>>;

const usage = (argv: string[]) => {
  try {
    parseCommandLine(SPEC, argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`no usage error for ${argv.join(' ')}`);
};

describe('parseCommandLine', () => {
  test('values with their defaults', () => {
    expect(parseCommandLine(SPEC, ['--in', 'x'])).toEqual({ help: false, values: { in: 'x', n: '3', fast: false }, positionals: [] });
    expect(parseCommandLine(SPEC, ['--in=x', '--n', '9', '--fast', '--label', 'y']).values).toEqual({ in: 'x', n: '9', fast: true, label: 'y' });
    expect(parseCommandLine(SPEC, ['--help']).help).toBe(true);
    expect(parseCommandLine(SPEC, ['-h']).help).toBe(true);
  });

  test('a bad command line is one line naming the option', () => {
    expect(usage(['--in', 'x', '--fsat'])).toBe("unknown option '--fsat'");
    expect(usage(['--in'])).toBe("option '--in' needs a value");
    expect(usage(['--in', 'x', '--fast=yes'])).toBe("option '--fast' is a switch and takes no value");
    expect(usage([])).toBe("option '--in' is required");
    expect(usage(['--in', 'x', '--n', '10'])).toBe("option '--n': must be a whole number from 1 to 9, not '10'");
    expect(usage(['--in', 'x', '--n', '2.5'])).toBe("option '--n': must be a whole number from 1 to 9, not '2.5'");
    expect(usage(['--in', 'x', 'extra'])).toBe("unexpected argument 'extra'");
    for (const argv of [['--in', 'x', '--fsat'], ['--in'], []]) expect(usage(argv)).not.toContain('\n');
  });

  test('positionals: counted', () => {
    const spec = { ...SPEC, options: {}, positionals: { names: ['DIR'], describe: 'a folder', min: 1, max: 1 } } as const satisfies CliSpec<Record<string, CliOption>>;
    expect(parseCommandLine(spec, ['a']).positionals).toEqual(['a']);
    expect(() => parseCommandLine(spec, [])).toThrow('missing DIR');
    expect(() => parseCommandLine(spec, ['a', 'b'])).toThrow("unexpected argument 'b'");
  });
});

describe('helpText', () => {
  test('every option with its default, the environment, the examples', () => {
    const text = helpText(SPEC);
    expect(text.split('\n')[0]).toBe('usage: npm run thing -- --in DIR [--n 3] [--fast]');
    expect(text).toMatch(/^ {2}--in DIR +where from \(required\)$/m);
    expect(text).toMatch(/^ {2}--n N +how many \(default: 3\)$/m);
    expect(text).toMatch(/^ {2}--fast +go fast \(default: off\)$/m);
    expect(text).toMatch(/^ {2}--label VALUE +a label \(default: none\)$/m);
    expect(text).toMatch(/^ {2}-h, --help +this help$/m);
    expect(text).toMatch(/^Environment:\n {2}THING_HOME +where things live$/m);
    expect(text).toMatch(/^Example:\n {2}npm run thing -- --in x$/m);
  });
});
