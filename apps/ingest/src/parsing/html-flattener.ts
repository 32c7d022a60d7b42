/** Named entities that appear in English and French Interac mails; numeric ones are decoded generically. */
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', dollar: '$', colon: ':', comma: ',', period: '.',
  rsquo: '\u2019', lsquo: '\u2018', rdquo: '\u201d', ldquo: '\u201c', ndash: '\u2013', mdash: '\u2014', hellip: '\u2026',
  copy: '\u00a9', reg: '\u00ae', trade: '\u2122', laquo: '\u00ab', raquo: '\u00bb', shy: '',
  eacute: 'é', Eacute: 'É', egrave: 'è', Egrave: 'È', ecirc: 'ê', Ecirc: 'Ê', euml: 'ë', Euml: 'Ë',
  agrave: 'à', Agrave: 'À', acirc: 'â', Acirc: 'Â', auml: 'ä', ccedil: 'ç', Ccedil: 'Ç',
  icirc: 'î', Icirc: 'Î', iuml: 'ï', Iuml: 'Ï', ocirc: 'ô', Ocirc: 'Ô', ouml: 'ö', oelig: 'œ', OElig: 'Œ',
  ugrave: 'ù', Ugrave: 'Ù', ucirc: 'û', Ucirc: 'Û', uuml: 'ü', Uuml: 'Ü', yuml: 'ÿ',
};

export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[body] ?? entity;
  });
}

const BLOCK_TAGS = /<\/?(?:p|div|br|tr|table|tbody|thead|li|ul|ol|h[1-6]|section|article|header|footer|center|blockquote|hr)\b[^>]*>/gi;

/**
 * Text of an HTML-only mail: invisible parts dropped, block elements turned
 * into line breaks, cells separated by spaces, entities decoded. A mail whose
 * HTML has no blocks comes out as one line, which the extractor also reads.
 */
export function flattenHtml(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(head|style|script|title)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/\s+/g, ' ')
    .replace(BLOCK_TAGS, '\n')
    .replace(/<\/?(?:td|th)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '');
  return decodeHtmlEntities(text)
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}
