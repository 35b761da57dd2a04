// What a restore's audit file says it did to each key, read for the views after the restore.
import * as fs from 'node:fs';
import * as readline from 'node:readline';

/** Audit lines whose keys are told to the views after a restore; past that, the store's list reloads alone. */
const RESTORED_KEYS_TOLD = 1000;

export interface AuditedKey {
  scope: string;
  key: string;
  action?: unknown;
  /** The version written, when the line says one. */
  written?: unknown;
}

/**
 * The keys of the audit file's lines, the first `max` of them. Lines that are not audit lines are skipped; a file
 * that is missing or cannot be read ends the list (the views reload the store anyway).
 */
export async function* auditedKeys(auditFile: string, max = RESTORED_KEYS_TOLD): AsyncGenerator<AuditedKey> {
  if (!fs.existsSync(auditFile)) return;
  const lines = readline.createInterface({ input: fs.createReadStream(auditFile), crlfDelay: Infinity });
  let told = 0;
  try {
    for await (const text of lines) {
      let line: { n?: unknown; action?: unknown; scope?: unknown; key?: unknown; written?: unknown };
      try {
        line = JSON.parse(text) as typeof line;
      } catch {
        continue;
      }
      if (typeof line.n !== 'number' || typeof line.scope !== 'string' || typeof line.key !== 'string') continue;
      if (++told > max) break;
      yield { scope: line.scope, key: line.key, action: line.action, written: line.written };
    }
  } catch {
    // A key not told shows its new value when it is read again.
  } finally {
    lines.close();
  }
}
