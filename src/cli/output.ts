// What the command line writes: the human report on stdout (or, with --json, one JSON object at the end), progress on
// stderr only when stderr is a terminal, and one line on stderr per failure. Everything written passes through the
// redactor of the API key in use, so the key never reaches a terminal, a CI log or a pipe.
import { Redactor } from '../api/redact';

/** Exit codes: done, failed, usage (bad flags or input), partly done (the skips or failures are listed). */
export const EXIT = { done: 0, failed: 1, usage: 2, partly: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A bad flag, a missing or bad value, or input that names nothing usable (a store, a file, a time): exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export class Output {
  private readonly secrets: Redactor[] = [];
  private progressShown = false;

  constructor(
    /** The command as typed (`export`, `index build`): the start of each error line and the JSON's `command`. */
    readonly command: string,
    readonly json: boolean,
    private readonly debug: boolean,
  ) {}

  /** Hides `key` in everything written from now on. */
  hide(key: string): void {
    this.secrets.push(new Redactor(key));
  }

  private clean(text: string): string {
    return this.secrets.reduce((t, secret) => secret.text(t), text);
  }

  /** A line of the human report; nothing with --json. */
  say(text = ''): void {
    if (this.json) return;
    this.endProgress();
    process.stdout.write(`${this.clean(text)}\n`);
  }

  /** A note on stderr (with --json too): something the person should know that is not the result. */
  note(text: string): void {
    this.endProgress();
    process.stderr.write(`${this.clean(text)}\n`);
  }

  /** One progress line on stderr, redrawn in place; only when stderr is a terminal. */
  progress(text: string): void {
    if (!process.stderr.isTTY) return;
    process.stderr.write(`\r\x1b[2K${this.clean(text)}`);
    this.progressShown = true;
  }

  private endProgress(): void {
    if (!this.progressShown) return;
    process.stderr.write('\r\x1b[2K');
    this.progressShown = false;
  }

  /** Ends the command: with --json, writes `{command, exitCode, ...result}` on stdout. Returns the exit code. */
  finish(result: object, exitCode: ExitCode): ExitCode {
    this.endProgress();
    if (this.json) {
      const value = { command: this.command, exitCode, ...result };
      const hidden = this.secrets.reduce((v, secret) => secret.value(v), value);
      process.stdout.write(`${JSON.stringify(hidden)}\n`);
    }
    return exitCode;
  }

  /**
   * Ends the command with a failure: one line on stderr (`universe-explorer <command>: <message>`), the stack and
   * causes only with --debug; with --json also `{command, exitCode, error: {kind, message}}` on stdout.
   */
  fail(error: Error, exitCode: ExitCode): ExitCode {
    this.endProgress();
    const message = error.message.replace(/\s*\n\s*/g, ' ');
    const program = this.command ? `universe-explorer ${this.command}` : 'universe-explorer';
    const help = exitCode === EXIT.usage ? ` (see ${program} --help)` : '';
    process.stderr.write(this.clean(`${program}: ${message}${help}\n`));
    if (this.debug) process.stderr.write(`${this.clean(detail(error))}\n`);
    if (this.json) {
      const kind = exitCode === EXIT.usage ? 'usage' : 'failed';
      return this.finish({ error: { kind, message } }, exitCode);
    }
    return exitCode;
  }
}

/** The error's stack and its chain of causes, for --debug. */
function detail(error: unknown, depth = 0): string {
  if (!(error instanceof Error) || depth > 5) return String(error);
  const own = error.stack ?? `${error.name}: ${error.message}`;
  return error.cause === undefined ? own : `${own}\ncaused by: ${detail(error.cause, depth + 1)}`;
}
