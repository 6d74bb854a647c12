/**
 * Command-line flags of the bench scripts, parsed by `node:util` parseArgs: an unknown or
 * misspelt flag stops the run with a message instead of being ignored (a typo in `--sizes`
 * used to start the 100k default), and `--help` prints every flag with its default.
 */
import { parseArgs } from 'node:util';

/** One flag: parseArgs' own option config plus the line `--help` prints for it (`value` names its value there). */
export type Flag =
  | { type: 'string'; default?: string; value?: string; help: string }
  | { type: 'boolean'; help: string };

type Values<F extends Record<string, Flag>> = {
  [K in keyof F]: F[K] extends { type: 'boolean' }
    ? boolean
    : F[K] extends { default: string }
      ? string
      : string | undefined;
};

/**
 * Parses `argv` (default: the script's arguments) against `flags`; with `--help` prints
 * `usage` and the flags, then exits. Boolean flags are false when absent.
 */
export function benchArgs<const F extends Record<string, Flag>>(
  usage: string,
  flags: F,
  argv: string[] = process.argv.slice(2),
): Values<F> {
  const options = Object.fromEntries(
    Object.entries({ ...flags, help: { type: 'boolean', help: 'print this help' } as const }).map(([name, flag]) => [
      name,
      flag.type === 'string' && flag.default !== undefined
        ? { type: 'string' as const, default: flag.default }
        : { type: flag.type },
    ]),
  );
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as typeof values;
  } catch (error) {
    fail(`${(error as Error).message}\n\n${helpText(usage, flags)}`);
  }
  if (values.help) {
    console.log(helpText(usage, flags));
    process.exit(0);
  }
  for (const [name, flag] of Object.entries(flags)) if (flag.type === 'boolean') values[name] ??= false;
  return values as Values<F>;
}

function helpText(usage: string, flags: Record<string, Flag>): string {
  const lines = Object.entries(flags).map(([name, flag]) => {
    const left = flag.type === 'string' ? `--${name} ${flag.value ?? 'N'}` : `--${name}`;
    const fallback = flag.type === 'string' && flag.default !== undefined ? ` (default ${flag.default})` : '';
    return `  ${left.padEnd(28)} ${flag.help}${fallback}`;
  });
  return `${usage}\n\nFlags:\n${lines.join('\n')}\n  ${'--help'.padEnd(28)} print this help`;
}

/** Stops the run with `message` and exit code 2 (a usage error), before anything was started. */
function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** A positive whole number from a flag's text, or the run stops naming the flag. */
export function positiveInt(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) fail(`--${name} must be a positive whole number, not "${text}"`);
  return value;
}

/** A whole number of 0 or more from a flag's text, or the run stops naming the flag. */
export function nonNegativeInt(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) fail(`--${name} must be a whole number of 0 or more, not "${text}"`);
  return value;
}

/** The `--sizes` flag every catalog benchmark takes, with that script's default. */
export const sizesFlag = (fallback: string) =>
  ({
    type: 'string',
    default: fallback,
    value: 'N,N',
    help: 'catalog sizes in master products, comma-separated',
  }) as const;

/** A comma-separated list of positive whole numbers (e.g. `--sizes 1000,100000`). */
export const positiveInts = (name: string, text: string): number[] => list(text).map((part) => positiveInt(name, part));

/** A comma-separated list of words (e.g. `--formats BMEcat,CSV`), empty parts dropped. */
export const list = (text: string): string[] =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
