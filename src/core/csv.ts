// CSV as RFC 4180 describes it: CRLF line ends, and a field holding a comma, a double quote or a line break is
// quoted with its quotes doubled. Text that a spreadsheet would run as a formula (it starts with =, +, -, @, a tab
// or a carriage return: OWASP's list) gets a leading apostrophe and is quoted, so it opens as text; numbers, and
// text that is a plain number, stay as they are. Pure: no vscode import.

export type CsvValue = string | number | boolean | null | undefined;

const formulaStart = /^[=+\-@\t\r]/;
const plainNumber = /^[+-]?\d+(\.\d+)?$/;

export function csvField(value: CsvValue): string {
  const text = value === null || value === undefined ? '' : String(value);
  if (typeof value === 'string' && formulaStart.test(text) && !plainNumber.test(text)) {
    return `"'${text.replace(/"/g, '""')}"`;
  }
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header row, then one line per row. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',') + '\r\n').join('');
}
