import vscode = require('vscode');

export type Report = (message: string, increment?: number) => void;

export interface ProgressOptions {
  /**
   * Show the notification only once the work has taken this long (default 300 ms; 0 shows it at once); the work
   * starts at once. Quick work (one request) then shows no notification that flashes and pushes others away.
   */
  delayMs?: number;
}

const DEFAULT_DELAY_MS = 300;

/** Runs work under a cancellable notification; the AbortSignal follows its Cancel button. */
export type Progress = <T>(
  title: string,
  task: (signal: AbortSignal, report: Report) => Promise<T>,
  options?: ProgressOptions,
) => Promise<T>;

export const withProgress: Progress = (title, task, options = {}) => {
  const controller = new AbortController();
  let shown: vscode.Progress<{ message?: string; increment?: number }> | undefined;
  let last: { message?: string; increment?: number } | undefined;
  const work = task(controller.signal, (message, increment) => {
    last = { message, increment };
    shown?.report(last);
  });
  const show = () =>
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (progress, token) => {
        shown = progress;
        if (last) progress.report({ message: last.message });
        const listener = token.onCancellationRequested(() => controller.abort());
        return work.finally(() => listener.dispose());
      },
    );
  // The caller handles the work's failure; the notification only follows it.
  const quietly = () => void show().then(undefined, () => undefined);
  const delayMs = options.delayMs ?? DEFAULT_DELAY_MS;
  if (delayMs <= 0) {
    quietly();
    return work;
  }
  const timer = setTimeout(quietly, delayMs);
  return work.finally(() => clearTimeout(timer));
};
