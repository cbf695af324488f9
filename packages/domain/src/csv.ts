/**
 * CSV for spreadsheets (RFC 4180): fields separated by commas, records by CRLF; a field holding
 * a separator of either kind (`,`, or the `;` a spreadsheet in a European locale splits by), a
 * quote, CR, LF or a tab is quoted and its quotes doubled (issue 24, item 8).
 *
 * A cell a spreadsheet would read as a formula (its text starting with = + - @, a tab or CR,
 * after any spaces or quotes) gets a leading apostrophe, so a value a dealer or staff member
 * typed cannot run in the reader's spreadsheet (OWASP: CSV injection). A cell starts at the
 * field's start and also after every `,` `;` tab, CR or LF inside it: a reader that splits by
 * another separator than ours takes a quote inside a record as text, so it splits a quoted
 * `ok;=1+1;x` into three cells; the middle one gets the apostrophe too (docs/decisions/030).
 */
export function csvField(value: unknown): string {
  // Most cells (dates, amounts, ids, names) start with no formula character, space or quote and
  // hold no separator or quote: they are written as they are, after one test instead of three.
  if (typeof value === 'string' && PLAIN_CELL.test(value)) return value;
  const text =
    value === null || value === undefined
      ? ''
      : typeof value === 'string'
        ? value
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
  const safe = neutralizeFormulas(text);
  return /[",;\r\n\t]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvRecord(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** A cell the rules leave as it is: empty, or a safe first character and no separator or quote. */
const PLAIN_CELL = /^(?:[^ "=+\-@\t\r\n,;][^",;\r\n\t]*)?$/;

/** An apostrophe before every cell start that a spreadsheet would read as a formula. */
function neutralizeFormulas(text: string): string {
  // Most fields hold no separator: only their start can begin a cell (the finance export writes
  // a million of them a minute).
  if (!/[,;\t\r\n]/.test(text)) return /^[ "]*[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return text.replace(FORMULA_AT_CELL_START, "'");
}

/**
 * Where a cell starts (the text's start, or after a `,` `;` tab, CR or LF) with what a spreadsheet
 * reads as a formula: an empty match there, so that each gets its apostrophe in one pass.
 */
const FORMULA_AT_CELL_START = /(?:^|(?<=[,;\t\r\n]))(?=[ "]*[=+\-@\t\r])/g;
