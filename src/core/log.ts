import vscode = require('vscode');
import { Redactor } from '../api/redact';
import { failureDetail } from './errors';

type Level = 'info' | 'warn' | 'error';

/**
 * One log channel for the extension. It keeps recent lines in memory so tests can read what was logged. Every line
 * has the API keys it was told of hidden. The channel is made just after activation (making it creates a log folder,
 * a few milliseconds activation need not wait for); lines logged before then are written to it then.
 */
export class Log implements vscode.Disposable {
  private channel: vscode.LogOutputChannel | undefined;
  private readonly waiting: [Level, string][] = [];
  private disposed = false;
  private readonly recent: string[] = [];
  private readonly keys = new Map<string, Redactor>();

  constructor() {
    setTimeout(() => this.open(), 0);
  }

  /** An API key in use: hidden from every line logged from now on. */
  hideKey(key: string): void {
    if (!this.keys.has(key)) this.keys.set(key, new Redactor(key));
  }

  info(message: string): void {
    message = this.redact(message);
    this.remember(message);
    this.write('info', message);
  }

  warn(message: string): void {
    message = this.redact(message);
    this.remember(message);
    this.write('warn', message);
  }

  /** The one-line message; with `error`, its stack and chain of causes follow it. */
  error(message: string, error?: unknown): void {
    message = this.redact(error === undefined ? message : `${message}\n${failureDetail(error)}`);
    this.remember(message);
    this.write('error', message);
  }

  show(): void {
    this.open()?.show(true);
  }

  lines(): readonly string[] {
    return this.recent;
  }

  dispose(): void {
    this.disposed = true;
    this.channel?.dispose();
  }

  private open(): vscode.LogOutputChannel | undefined {
    if (this.channel || this.disposed) return this.channel;
    this.channel = vscode.window.createOutputChannel('Universe Explorer', { log: true });
    for (const [level, message] of this.waiting.splice(0)) this.channel[level](message);
    return this.channel;
  }

  private write(level: Level, message: string): void {
    if (this.channel) this.channel[level](message);
    else this.waiting.push([level, message]);
  }

  private redact(text: string): string {
    for (const redactor of this.keys.values()) text = redactor.text(text);
    return text;
  }

  private remember(line: string): void {
    this.recent.push(line);
    if (this.recent.length > 2000) this.recent.splice(0, 500);
  }
}
