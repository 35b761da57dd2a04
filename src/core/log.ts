import vscode = require('vscode');

/** One log channel for the extension. It keeps recent lines in memory so tests can read what was logged. */
export class Log implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel('Universe Explorer', { log: true });
  private readonly recent: string[] = [];

  info(message: string): void {
    this.remember(message);
    this.channel.info(message);
  }

  warn(message: string): void {
    this.remember(message);
    this.channel.warn(message);
  }

  error(message: string): void {
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

  private remember(line: string): void {
    this.recent.push(line);
    if (this.recent.length > 2000) this.recent.splice(0, 500);
  }
}
