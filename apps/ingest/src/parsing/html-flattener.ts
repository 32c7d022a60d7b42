import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/** Elements whose content a reader never sees; dropped up to their end tag (the head also ends at the body). */
const HIDDEN = new Set(['head', 'style', 'script', 'title']);
/** Elements that start a new line, opening or closing. */
const BLOCKS = new Set([
  'p', 'div', 'br', 'tr', 'table', 'tbody', 'thead', 'li', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'section', 'article', 'header', 'footer', 'center', 'blockquote', 'hr',
]);
/** Table cells: their contents are separated by a space. */
const CELLS = new Set(['td', 'th']);
const SOFT_HYPHEN = /\u00ad/g;

/**
 * Text of an HTML-only mail: invisible parts dropped, block elements turned
 * into line breaks, cells separated by spaces, entities decoded. A mail whose
 * HTML has no blocks comes out as one line, which the extractor also reads.
 *
 * Hostile HTML reaches this code, so it runs on htmlparser2's Tokenizer: one
 * pass over the input, whatever it holds (unclosed tags, comments or `<`).
 * Not its Parser: that keeps open elements in an array it shifts at every
 * tag, quadratic on thousands of unclosed tags. Nothing here needs the tree.
 * Callers cap the input (parse-limits.ts).
 */
export function flattenHtml(html: string): string {
  const out: string[] = [];
  let hiddenUntil: string | null = null;
  // The raw text read since the last tag, entity or comment, as one slice of the input: the tokenizer
  // hands text over in many adjacent pieces, and handling each apart made "< < < …" ten times slower.
  let run = { start: 0, end: 0 };
  const flush = () => {
    // Raw text collapses like the old regex flattener did before decoding; decoded entities are kept as they are.
    if (run.end > run.start) out.push(html.slice(run.start, run.end).replace(/\s+/g, ' '));
    run = { start: 0, end: 0 };
  };
  const emit = (text: string) => {
    flush();
    out.push(text);
  };
  const tagName = (start: number, end: number) => html.slice(start, end).toLowerCase();
  const onTag = (name: string, closing: boolean) => {
    if (hiddenUntil !== null) {
      if (closing ? name === hiddenUntil : hiddenUntil === 'head' && name === 'body') hiddenUntil = null;
      return;
    }
    flush();
    if (!closing && HIDDEN.has(name)) hiddenUntil = name;
    else if (BLOCKS.has(name)) out.push('\n');
    else if (CELLS.has(name)) out.push(' ');
  };
  const ignore = () => undefined;
  const callbacks: TokenizerCallbacks = {
    ontext: (start, end) => {
      if (hiddenUntil !== null) return;
      if (start !== run.end || run.end === run.start) {
        flush();
        run.start = start;
      }
      run.end = end;
    },
    ontextentity: (codepoint) => void (hiddenUntil === null && emit(String.fromCodePoint(codepoint))),
    onopentagname: (start, end) => onTag(tagName(start, end), false),
    onclosetag: (start, end) => onTag(tagName(start, end), true),
    oncomment: () => void (hiddenUntil === null && emit(' ')),
    onattribdata: ignore,
    onattribentity: ignore,
    onattribend: ignore,
    onattribname: ignore,
    oncdata: ignore,
    ondeclaration: ignore,
    onend: flush,
    onopentagend: ignore,
    onprocessinginstruction: ignore,
    onselfclosingtag: ignore,
  };
  const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  return out
    .join('')
    .replace(SOFT_HYPHEN, '')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}
