// universe-explorer (dist/cli.js): the command line over the same src/api and src/query functions the editor uses.
// Exit codes: 0 done, 1 failed, 2 usage (a bad option or input), 3 partly done (the skips or failures are listed).
// The API key comes only from UE_API_KEY or --api-key-file, and is hidden in everything written.
import { isAbort } from '../api';
import { commandHelp, optionsOf, type Command, type Context } from './command';
import { assetsUpload } from './commands/assets';
import { bansBan, bansList, bansUnban } from './commands/bans';
import { bansApply, bansBanMany, bansUnbanEverywhere } from './commands/bansMany';
import { compareCommand } from './commands/compare';
import { exportCommand } from './commands/export';
import { importCommand } from './commands/import';
import { indexBuild, indexQuery } from './commands/indexes';
import { mcpCommand } from './commands/mcp';
import { mapDelete, mapGet, mapList, mapSet, memoryFlush, queueAdd, queueDiscard, queueRead } from './commands/memory';
import { orderedGet, orderedIncrement, orderedList, orderedSet } from './commands/ordered';
import { restoreCommand } from './commands/restore';
import { parse } from './options';
import { EXIT, Output, UsageError, type ExitCode } from './output';

export const COMMANDS: Command[] = [
  exportCommand,
  importCommand,
  restoreCommand,
  compareCommand,
  indexBuild,
  indexQuery,
  bansList,
  bansBan,
  bansUnban,
  bansBanMany,
  bansUnbanEverywhere,
  bansApply,
  assetsUpload,
  orderedList,
  orderedGet,
  orderedSet,
  orderedIncrement,
  mapList,
  mapGet,
  mapSet,
  mapDelete,
  queueAdd,
  queueRead,
  queueDiscard,
  memoryFlush,
  mcpCommand,
];

const EMULATOR_SUMMARY = 'run the local emulator of the Open API (the options of node dist/emulator.js; see --help)';

function programHelp(): string {
  const rows = [...COMMANDS.map((c) => [c.name, c.summary]), ['emulator', EMULATOR_SUMMARY]];
  const width = Math.max(...rows.map(([name]) => name.length)) + 2;
  return `Usage: universe-explorer <command> [options]

Data stores, ordered and memory stores, bans, assets and the query index of a universe, from a terminal or a CI job.

Commands:
${rows.map(([name, summary]) => `  ${name.padEnd(width)}${summary}`).join('\n')}

Connection (every command that talks to the service):
  --universe <id>                the universe
  --base-url <url>               the Open API's address (default https://apis.roblox.com)
  --entry-header-prefix <word>   the prefix of entry headers (default platform)
  The API key comes from the UE_API_KEY environment variable, or from a file named by --api-key-file <file>.
  It is never taken from a flag (--api-key is refused) and never printed.

Output: a report for people on stdout; --json writes one JSON object on stdout at the end instead (each command's
--help shows its shape). Progress goes to stderr, only when stderr is a terminal. --debug adds the stack to a failure.

Exit codes: 0 done, 1 failed, 2 usage (a bad option or input: an unknown store, a bad time, no API key),
3 partly done (the keys skipped or failed are listed).

Run universe-explorer <command> --help for a command's options.
`;
}

/** The command `argv` names (one to three words), and the arguments after its name; undefined when it names none. */
function commandOf(argv: string[]): { command: Command; rest: string[] } | undefined {
  for (const words of [1, 2, 3]) {
    const one = COMMANDS.find((c) => c.name === argv.slice(0, words).join(' '));
    if (one) return { command: one, rest: argv.slice(words) };
  }
  return undefined;
}

/** The longest group of commands `argv` starts with (`memory`, `memory map`), and the commands in it. */
function groupOf(argv: string[]): { group: string; names: string[] } {
  let found = { group: '', names: [] as string[] };
  for (let words = 1; words <= argv.length; words++) {
    const group = argv.slice(0, words).join(' ');
    const names = COMMANDS.filter((c) => c.name.startsWith(`${group} `)).map((c) => c.name);
    if (!names.length) break;
    found = { group, names };
  }
  return found;
}

/** Runs the command line; resolves to its exit code, or undefined for the emulator, which runs on. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<ExitCode | undefined> {
  const { stdout, stderr } = process;
  const [first] = argv;
  if (first === 'emulator') {
    // The emulator's own bundle, required only here (dist/emulator.js beside dist/cli.js).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const emulator = require('../emulator/cli') as typeof import('../emulator/cli');
    await emulator.runEmulatorCli(argv.slice(1), 'universe-explorer emulator');
    return undefined;
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const asked = first === 'help' && argv[1] !== undefined ? commandOf(argv.slice(1)) : undefined;
    if (asked) stdout.write(commandHelp(asked.command));
    else (first === undefined ? stderr : stdout).write(programHelp());
    return first === undefined ? EXIT.usage : EXIT.done;
  }
  const found = commandOf(argv);
  const json = argv.includes('--json');
  // The key in UE_API_KEY is hidden from the start: a key typed by mistake as an option's value is not shown either.
  const outputOf = (name: string, debug = false): Output => {
    const out = new Output(name, json, debug);
    if (env.UE_API_KEY?.trim()) out.hide(env.UE_API_KEY.trim());
    return out;
  };
  if (!found) {
    const { group, names } = groupOf(argv);
    const out = outputOf(group);
    const next = argv[group ? group.split(' ').length : 0];
    if (group && (next === undefined || next === '--help' || next === '-h')) {
      const words = group.split(' ').length;
      const subs = [...new Set(names.map((n) => n.split(' ')[words]))];
      stdout.write(`Usage: universe-explorer ${group} <${subs.join('|')}> …\n`);
      return next === undefined ? EXIT.usage : EXIT.done;
    }
    const known = [...new Set(COMMANDS.map((c) => c.name.split(' ')[0])), 'emulator'].join(', ');
    const message = group
      ? `unknown command ${JSON.stringify(next)}: use one of ${names.join(', ')}`
      : first.startsWith('-')
        ? `a command comes first: use one of ${known}`
        : `unknown command ${JSON.stringify(first.length > 40 ? `${first.slice(0, 40)}…` : first)}: use one of ${known}`;
    return out.fail(new UsageError(message), EXIT.usage);
  }
  const { command, rest } = found;
  const out = outputOf(command.name, argv.includes('--debug'));
  const closers: (() => Promise<void>)[] = [];
  const controller = new AbortController();
  const stop = (): void => {
    if (controller.signal.aborted) process.exit(EXIT.failed);
    controller.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const { values, positionals } = parse(rest, optionsOf(command), command.positionals ?? 0);
    if (values.help) {
      stdout.write(commandHelp(command));
      return EXIT.done;
    }
    const ctx: Context = {
      values,
      positionals,
      out,
      signal: controller.signal,
      env,
      onClose: (close) => void closers.push(close),
    };
    return await command.run(ctx);
  } catch (error) {
    if (error instanceof UsageError) return out.fail(error, EXIT.usage);
    if (isAbort(error)) return out.fail(new Error('stopped before the end'), EXIT.failed);
    return out.fail(error instanceof Error ? error : new Error(String(error)), EXIT.failed);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    for (const close of closers.reverse()) await close().catch(() => undefined);
  }
}

if (require.main === module) {
  // A reader that went away (`| head`) ends the output, not the command with a stack.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  void main(process.argv.slice(2)).then((code) => {
    // Everything is closed: end now, once stdout has taken what was written.
    if (code !== undefined) process.stdout.write('', () => process.exit(code));
  });
}
