/**
 * What an e-mail says, once, as blocks (docs/decisions/044): the plain-text part is written out
 * from them here (its words are tested and quoted, so the text is exactly what it always was),
 * and the server lays the same blocks out as the HTML part. A message's content function builds
 * one `IMailContent`; no message writes text and HTML separately, so they cannot disagree.
 */

/** A run of text in a line; `href` makes it a link in the HTML part (the text part shows the words). */
export type TMailInline = string | { text: string; href: string };

/** One line of a paragraph: runs joined without a separator. */
export type TMailLine = string | readonly TMailInline[];

export type TMailBlock =
  /** Consecutive lines of one paragraph (the text part keeps each on its own line). */
  | { kind: 'paragraph'; lines: readonly TMailLine[] }
  /**
   * A link to act on: the text part gives `intro` and the address on its own line; the HTML
   * part a button-like link named by `label`, with the address written out below it.
   */
  | { kind: 'action'; intro: string; label: string; href: string }
  /** Text someone typed, kept as typed (line breaks included). */
  | { kind: 'verbatim'; text: string }
  /** Quoted earlier text: the text part prefixes each line with '> '. */
  | { kind: 'quote'; intro: string; text: string }
  /** Labelled values ('Name: Sam'), one per line. */
  | { kind: 'fields'; rows: readonly (readonly [label: string, value: string])[] };

export interface IMailContent {
  /** The brand the message is sent under (R1), the HTML part's header. */
  company: string;
  subject: string;
  /** The HTML part's one heading (the text part starts with its first block). */
  heading: string;
  blocks: readonly TMailBlock[];
}

function lineText(line: TMailLine): string {
  if (typeof line === 'string') return line;
  return line.map((run) => (typeof run === 'string' ? run : run.text)).join('');
}

function blockText(block: TMailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return block.lines.map(lineText).join('\n');
    case 'action':
      return `${block.intro}\n${block.href}`;
    case 'verbatim':
      return block.text;
    case 'quote':
      return [block.intro, ...block.text.split(/\r?\n/).map((line) => `> ${line}`)].join('\n');
    case 'fields':
      return block.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
  }
}

/** The plain-text part: the blocks separated by one empty line. */
export function mailText(content: Pick<IMailContent, 'blocks'>): string {
  return content.blocks.map(blockText).join('\n\n');
}

/** A paragraph of lines (the common case). */
export const paragraph = (...lines: TMailLine[]): TMailBlock => ({ kind: 'paragraph', lines });

/** A phone number as a run: a `tel:` link in the HTML part, the number itself in the text. */
export const phoneRun = (phone: string): TMailInline => ({
  text: phone,
  href: `tel:${phone.replace(/[^\d+]/g, '')}`,
});

/** The closing line of every message to a dealer. */
export const questionsLine = (supportPhone: string): TMailBlock =>
  paragraph(['Questions? Call ', phoneRun(supportPhone), '.']);
