// What a command of the command line is: its name, its help (options, the JSON it writes, its exit codes) and its
// run, which gets the parsed options and the output, and returns the exit code.
import type { Options, Values } from './options';
import type { ExitCode, Output } from './output';

export interface Context {
  values: Values;
  positionals: string[];
  out: Output;
  /** Aborted on Ctrl+C (SIGINT) or SIGTERM: the command stops and says how to go on. */
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
  /** Runs `close` when the command ends (a client's connections, an index's database). */
  onClose(close: () => Promise<void>): void;
}

export interface Command {
  /** As typed: `export`, `index build`. */
  name: string;
  /** One line for the program's help. */
  summary: string;
  /** The usage lines, without the program's name. */
  usage: string[];
  /** What the command does, a few lines. */
  about: string;
  /** Option groups, each with a title, in the order the help shows them. */
  options: [string, Options][];
  /** Positional arguments taken at most. */
  positionals?: number;
  /** The --json object's shape, as the help shows it (none: the command takes no --json). */
  json?: string;
  /** The exit codes that mean something particular for this command. */
  exits?: string;
  examples?: string[];
  run(ctx: Context): Promise<ExitCode>;
}

/** Every option a command takes, its groups merged. */
export const optionsOf = (c: Command): Options => Object.assign({}, ...c.options.map(([, o]) => o)) as Options;

const pad = (s: string, n: number): string => (s.length >= n ? `${s}  ` : s.padEnd(n));

/** Wraps text to `width` columns, each line after the first indented by `indent`. */
function wrap(text: string, width: number, indent: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width - indent) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/** The help of one command. */
export function commandHelp(c: Command): string {
  const out = [
    `Usage: ${c.usage.map((u) => `universe-explorer ${c.name} ${u}`.trimEnd()).join('\n       ')}`,
    '',
    wrap(c.about, 118, 0),
  ];
  for (const [title, options] of c.options) {
    out.push('', `${title}:`);
    for (const [name, o] of Object.entries(options)) {
      const head = `  ${o.short ? `-${o.short}, ` : ''}--${name}${o.value ? ` ${o.value}` : ''}`;
      out.push(`${pad(head, 32)}${wrap(o.help, 118, 32)}`);
    }
  }
  if (c.json) out.push('', 'With --json, stdout holds one JSON object:', c.json);
  out.push('', 'Exit codes: 0 done, 1 failed, 2 usage (a bad option or input), 3 partly done.');
  if (c.exits) out.push(c.exits);
  if (c.examples?.length) out.push('', 'Examples:', ...c.examples.map((e) => `  ${e}`));
  return `${out.join('\n')}\n`;
}
