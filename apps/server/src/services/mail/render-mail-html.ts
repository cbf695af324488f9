import type {
  IMailContent,
  TMailBlock,
  TMailInline,
  TMailLine,
} from '@dealerpass/domain/mail/mail-content';

/**
 * The HTML part of every e-mail (docs/decisions/044): one layout in the brand around a message's
 * blocks. Accessible as mail clients allow: real text (no image carries a word), `lang`, one
 * heading, colours with AA contrast in light and in dark mode, no layout table, nothing wider
 * than a 320-pixel screen. Every value is escaped here, at the one place text becomes markup.
 */

const COLOR = {
  brand: '#0b2545',
  accent: '#f4b942',
  text: '#1b1f24',
  muted: '#4a5563',
  link: '#1849a9',
  surface: '#ffffff',
  page: '#f4f6f9',
  border: '#c9d1dc',
} as const;

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML text or attribute value: nothing in it can open a tag or leave an attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

/** Only web, mail and phone links: any other scheme (javascript:, data:) is not a link. */
function safeHref(href: string): string | null {
  return /^(https?:|mailto:|tel:)/i.test(href.trim()) ? escapeHtml(href.trim()) : null;
}

function link(text: string, href: string, style = ''): string {
  const target = safeHref(href);
  if (!target) return escapeHtml(text);
  return `<a href="${target}" style="color:${COLOR.link};${style}">${escapeHtml(text)}</a>`;
}

function inline(run: TMailInline): string {
  if (typeof run === 'string') return escapeHtml(run);
  // A phone number is not broken across lines.
  return link(run.text, run.href, run.href.startsWith('tel:') ? 'white-space:nowrap;' : '');
}

function lineHtml(line: TMailLine): string {
  return typeof line === 'string' ? escapeHtml(line) : line.map(inline).join('');
}

const P = 'margin:0 0 16px;';
const WRAP = 'overflow-wrap:anywhere;word-break:break-word;';

/** Typed text: paragraphs at empty lines, line breaks kept within them. */
function typedText(text: string, style = ''): string {
  return text
    .split(/(?:\r?\n){2,}/)
    .filter((part) => part.trim() !== '')
    .map(
      (part) =>
        `<p style="${P}${WRAP}${style}">${part.split(/\r?\n/).map(escapeHtml).join('<br>')}</p>`,
    )
    .join('\n');
}

function blockHtml(block: TMailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return block.lines.map((line) => `<p style="${P}${WRAP}">${lineHtml(line)}</p>`).join('\n');
    case 'action': {
      const target = safeHref(block.href);
      if (!target) return `<p style="${P}">${escapeHtml(block.intro)}</p>`;
      return [
        `<p style="${P}">${escapeHtml(block.intro)}</p>`,
        `<p style="margin:0 0 12px;"><a class="mail-button" href="${target}" style="display:inline-block;background-color:${COLOR.brand};color:#ffffff;font-weight:600;text-decoration:none;padding:12px 20px;border-radius:6px;border:2px solid ${COLOR.brand};">${escapeHtml(block.label)}</a></p>`,
        `<p class="mail-muted" style="${P}${WRAP}font-size:14px;color:${COLOR.muted};">If the button does not work, open this address: ${link(block.href, block.href)}</p>`,
      ].join('\n');
    }
    case 'verbatim':
      return typedText(block.text);
    case 'quote':
      return [
        `<p style="${P}">${escapeHtml(block.intro)}</p>`,
        `<blockquote class="mail-quote" style="margin:0 0 16px;padding:0 0 0 12px;border-left:4px solid ${COLOR.border};color:${COLOR.muted};">`,
        typedText(block.text, `color:${COLOR.muted};`),
        '</blockquote>',
      ].join('\n');
    case 'fields':
      return [
        `<div class="mail-fields" style="margin:0 0 16px;padding:12px 12px 4px;border:1px solid ${COLOR.border};border-radius:6px;">`,
        ...block.rows.map(
          ([label, value]) =>
            `<p style="margin:0 0 8px;${WRAP}"><strong>${escapeHtml(label)}:</strong> ${escapeHtml(value)}</p>`,
        ),
        '</div>',
      ].join('\n');
  }
}

/**
 * Dark mode for clients that honour `prefers-color-scheme`; the others show the light colours,
 * which every client renders readably, or invert them themselves.
 */
const STYLE = `
:root { color-scheme: light dark; supported-color-schemes: light dark; }
body { margin: 0; padding: 0; }
a:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
@media (prefers-color-scheme: dark) {
  .mail-page { background-color: #0d1520 !important; }
  .mail-card { background-color: #16202d !important; color: #e8edf3 !important; border-color: #2c3a4d !important; }
  .mail-card h1 { color: #ffffff !important; }
  .mail-card a { color: #a9c8ff !important; }
  .mail-card a.mail-button { background-color: ${COLOR.accent} !important; border-color: ${COLOR.accent} !important; color: #0b2545 !important; }
  .mail-muted, .mail-quote, .mail-quote p, .mail-footer p { color: #c3ccd8 !important; }
  .mail-quote, .mail-fields { border-color: #4a5b72 !important; }
}
`.trim();

/**
 * The whole HTML document of a message. `automatic` says in the footer that no person wrote
 * it (the same fact as the `Auto-Submitted` header, decision 044).
 */
export function renderMailHtml(content: IMailContent, options: { automatic: boolean }): string {
  const company = escapeHtml(content.company);
  const footer = options.automatic
    ? `This e-mail was sent automatically by ${company}.`
    : `This e-mail was sent by ${company}.`;
  return `<!DOCTYPE html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<meta name="x-apple-disable-message-reformatting">
<title>${escapeHtml(content.subject)}</title>
<style>
${STYLE}
</style>
</head>
<body class="mail-page" style="margin:0;padding:0;background-color:${COLOR.page};">
<main>
<div role="article" aria-roledescription="email" aria-label="${escapeHtml(content.subject)}" lang="en" dir="ltr" style="max-width:600px;margin:0 auto;padding:16px 8px;font-family:${FONT};font-size:16px;line-height:1.5;color:${COLOR.text};">
<div style="background-color:${COLOR.brand};border-bottom:4px solid ${COLOR.accent};border-radius:6px 6px 0 0;padding:16px 20px;">
<p style="margin:0;font-size:20px;font-weight:700;letter-spacing:0.02em;color:#ffffff;">${company}</p>
</div>
<div class="mail-card" style="background-color:${COLOR.surface};color:${COLOR.text};border:1px solid ${COLOR.border};border-top:0;border-radius:0 0 6px 6px;padding:20px;">
<h1 style="margin:0 0 16px;font-size:24px;line-height:1.25;color:${COLOR.brand};">${escapeHtml(content.heading)}</h1>
${content.blocks.map(blockHtml).join('\n')}
</div>
<div class="mail-footer" style="padding:12px 20px;">
<p style="margin:0;font-size:14px;color:${COLOR.muted};">${footer}</p>
</div>
</div>
</main>
</body>
</html>
`;
}
