// Pure helpers for parsing and showing values; no vscode import, so plain unit tests cover them.
import { t } from './text';

export interface UniverseEntry {
  id: number;
  name?: string;
}

/** Parses "123456 = My Game, 789" into universes; throws with the offending part. */
export function parseUniverses(text: string): UniverseEntry[] {
  const result: UniverseEntry[] = [];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^(\d{1,19})\s*(?:=\s*(.+))?$/.exec(part);
    if (!match) throw new Error(t`"${part}" is not a universe id (a number, optionally "= name").`);
    const id = Number(match[1]);
    if (!Number.isSafeInteger(id) || id <= 0) throw new Error(t`"${match[1]}" is not a valid universe id.`);
    if (!result.some((u) => u.id === id)) result.push(match[2] ? { id, name: match[2].trim() } : { id });
  }
  return result;
}

export function formatUniverses(universes: readonly UniverseEntry[]): string {
  return universes.map((u) => (u.name ? `${u.id} = ${u.name}` : String(u.id))).join(', ');
}

/** Whether the host is this machine (the emulator, a tunnel): plain http:// does not leave it. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * A message for an input box, or undefined when the URL is usable as a base URL. Plain http:// is for this machine
 * only, unless `allowInsecureHttp` (the API key would travel unencrypted).
 */
export function checkBaseUrl(text: string, allowInsecureHttp = false): string | undefined {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return t`Use an http:// or https:// address.`;
    if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopback(url.hostname)) {
      return t`Use https://: over http:// the API key would travel unencrypted (plain http:// is for this machine only; the user setting universeExplorer.allowInsecureHttp allows it elsewhere).`;
    }
    if (url.username || url.password) return t`Leave credentials out of the URL; the API key is asked separately.`;
    if (url.search || url.hash) return t`Leave the query and fragment out of the base URL.`;
    return undefined;
  } catch {
    return t`Enter a full URL, for example https://apis.example.com`;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
