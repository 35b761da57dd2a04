// The command line's options: named the same way in every command (connection, store, files, output), parsed with
// node:util's parseArgs, and a key given as a flag refused before anything else is read.
import { parseArgs } from 'node:util';
import { UsageError } from './output';

export interface Option {
  type: 'string' | 'boolean';
  /** The value's placeholder in the help (`<file>`). */
  value?: string;
  multiple?: boolean;
  /** Shown with a short letter too (`-h`). */
  short?: string;
  help: string;
}
export type Options = Record<string, Option>;
export type Values = Record<string, string | boolean | string[] | undefined>;

export const DEFAULT_BASE_URL = 'https://apis.roblox.com';

export const CONNECTION: Options = {
  universe: { type: 'string', value: '<id>', help: 'the universe, by its id (a number)' },
  'base-url': { type: 'string', value: '<url>', help: `the Open API's address (default ${DEFAULT_BASE_URL})` },
  'entry-header-prefix': {
    type: 'string',
    value: '<word>',
    help: 'the prefix of the entry headers the service sends (default platform)',
  },
  'api-key-file': {
    type: 'string',
    value: '<file>',
    help: 'read the API key from this file (else from the UE_API_KEY environment variable)',
  },
  'allow-insecure-http': {
    type: 'boolean',
    help: 'allow a plain http:// address on another machine (the API key then travels unencrypted)',
  },
};

export const STORE: Options = {
  store: { type: 'string', value: '<name>', help: 'the data store' },
  scope: { type: 'string', value: '<scope>', help: 'the scope (default global)' },
  'all-scopes': { type: 'boolean', help: 'every scope of the store instead of one' },
};

export const OUTPUT: Options = {
  json: { type: 'boolean', help: 'write one JSON object on stdout at the end, for machines (shape below)' },
  debug: { type: 'boolean', help: 'on a failure, also print the stack and its causes' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
};

/** Why `--api-key` is refused; the value given is never repeated. */
const KEY_FLAG_REFUSED =
  '--api-key is refused: a key on the command line is visible to other users of this machine and kept in shell ' +
  'history. Put it in the UE_API_KEY environment variable, or in a file named by --api-key-file';

/** Throws a UsageError when any argument before `--` is `--api-key` or `--api-key=…`. */
function refuseKeyFlag(argv: string[]): void {
  for (const arg of argv) {
    if (arg === '--') return;
    if (arg === '--api-key' || arg.startsWith('--api-key=')) throw new UsageError(KEY_FLAG_REFUSED);
  }
}

interface Parsed {
  values: Values;
  positionals: string[];
}

/** Parses `argv` strictly against `options`; a bad flag is a UsageError in one line. */
export function parse(argv: string[], options: Options, positionals: number): Parsed {
  refuseKeyFlag(argv);
  const config = Object.fromEntries(
    Object.entries(options).map(([name, { type, multiple, short }]) => [
      name,
      { type, ...(multiple ? { multiple } : {}), ...(short ? { short } : {}) },
    ]),
  );
  let parsed: Parsed;
  try {
    parsed = parseArgs({ args: argv, options: config, allowPositionals: true, strict: true }) as Parsed;
  } catch (error) {
    const e = error as Error & { code?: string };
    const unknown = /^Unknown option '([^']*)'/.exec(e.message);
    if (unknown) throw new UsageError(`unknown option ${unknown[1]}`);
    throw new UsageError(e.message.split('\n')[0].replace(/\.$/, ''));
  }
  if (parsed.positionals.length > positionals) {
    const extra = parsed.positionals[positionals];
    throw new UsageError(`unexpected argument ${JSON.stringify(extra.length > 40 ? `${extra.slice(0, 40)}…` : extra)}`);
  }
  return parsed;
}

/** A string option, or undefined; an empty value is a UsageError. */
export function text(values: Values, name: string): string | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new TypeError(`--${name} is not a text option`);
  if (v.trim() === '') throw new UsageError(`--${name} is empty`);
  return v;
}

/** A string option that must be given. */
export function required(values: Values, name: string, what: string): string {
  const v = text(values, name);
  if (v === undefined) throw new UsageError(`--${name} is missing: give ${what}`);
  return v;
}

export const flag = (values: Values, name: string): boolean => values[name] === true;

/** A whole number option within `min`..`max`, or undefined. */
export function whole(values: Values, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const v = text(values, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || n < min || n > max) {
    throw new UsageError(`--${name}: ${JSON.stringify(v)} is not a whole number from ${min} to ${max}`);
  }
  return n;
}
