import vscode = require('vscode');
import { Redactor } from '../api/redact';
import { failureDetail } from './errors';

/**
 * One log channel for the extension. It keeps recent lines in memory so tests can read what was logged. Every line
 * has the API keys it was told of hidden.
 */
export class Log implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel('Universe Explorer', { log: true });
  private readonly recent: string[] = [];
  private readonly keys = new Map<string, Redactor>();

  /** An API key in use: hidden from every line logged from now on. */
  hideKey(key: string): void {
    if (!this.keys.has(key)) this.keys.set(key, new Redactor(key));
  }

  info(message: string): void {
    message = this.redact(message);
    this.remember(message);
    this.channel.info(message);
  }

  warn(message: string): void {
    message = this.redact(message);
    this.remember(message);
    this.channel.warn(message);
  }

  /** The one-line message; with `error`, its stack and chain of causes follow it. */
  error(message: string, error?: unknown): void {
    message = this.redact(error === undefined ? message : `${message}\n${failureDetail(error)}`);
    this.remember(message);
    this.channel.error(message);
  }

  show(): void {
    this.channel.show(true);
  }

  lines(): readonly string[] {
    return this.recent;
  }

  dispose(): void {
    this.channel.dispose();
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
