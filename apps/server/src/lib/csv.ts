/**
 * CSV for spreadsheets (RFC 4180): fields separated by commas, records by CRLF; a field with a
 * comma, a quote, CR or LF is quoted and its quotes doubled. A field a spreadsheet would read as
 * a formula (starting with = + - @, a tab or CR) gets a leading apostrophe first, so a value a
 * dealer or staff member typed cannot run in the reader's spreadsheet (OWASP: CSV injection).
 */
export function csvField(value: unknown): string {
  let text =
    value === null || value === undefined
      ? ''
      : typeof value === 'string'
        ? value
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
