// Small pieces of the human report.

/** `1 entry`, `1,204 entries`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** `, 240/s` while something is moving. */
export const rate = (perSecond: number): string => (perSecond > 0 ? `, ${perSecond.toLocaleString('en-US')}/s` : '');

/** A list of at most `most` lines, then how many more there are. */
export function listed<T>(items: T[], line: (item: T) => string, most = 50): string[] {
  const shown = items.slice(0, most).map((i) => `  ${line(i)}`);
  if (items.length > most) shown.push(`  … and ${(items.length - most).toLocaleString('en-US')} more`);
  return shown;
}
