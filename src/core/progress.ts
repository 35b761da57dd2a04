import vscode = require('vscode');

export type Report = (message: string, increment?: number) => void;

/** Runs work under a cancellable notification; the AbortSignal follows its Cancel button. */
export type Progress = <T>(title: string, task: (signal: AbortSignal, report: Report) => Promise<T>) => Promise<T>;

export const withProgress: Progress = (title, task) =>
  Promise.resolve(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      (progress, token) => {
        const controller = new AbortController();
        const listener = token.onCancellationRequested(() => controller.abort());
        return task(controller.signal, (message, increment) => progress.report({ message, increment })).finally(() =>
          listener.dispose(),
        );
      },
    ),
  );
