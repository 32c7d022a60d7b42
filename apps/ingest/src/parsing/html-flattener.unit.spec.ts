import { flattenHtml } from './html-flattener';

describe('flattenHtml', () => {
  it.each([
    ['drops the head, styles, scripts and titles', '<html><head><title>T</title><style>p{}</style></head><body><script>x="<p>"</script><p>Amount:</p></body>', 'Amount:'],
    ['turns block elements into lines and cells into spaces', '<table><tr><td>Amount:</td><td><b>$1.00</b></td></tr><tr><td>Date:</td></tr></table>', 'Amount: $1.00\nDate:'],
    ['joins inline elements without a space', '<p>Mon<span>tant</span> :</p><o:p>x</o:p>', 'Montant :\nx'],
    ['separates words around a comment', '<p>Mon<!-- x -->tant</p>', 'Mon tant'],
    ['decodes named, numeric and HTML5 entities', '<p>&#36;1 &amp; 2&nbsp;$ Num&eacute;ro &rsquo;&hellip; &#xE9; &dollar;</p>', '$1 & 2\u00a0$ Numéro \u2019\u2026 é $'],
    ['drops soft hyphens', '<p>Mon&shy;tant</p>', 'Montant'],
    ['collapses whitespace of the source but keeps decoded no-break spaces', '<p>  1\n\t234  </p><p>1&nbsp;&nbsp;2</p>', '1 234\n1\u00a0\u00a02'],
    ['reads upper-case tags', '<P>A</P><DIV>B</DIV><TD>C</TD>', 'A\nB\nC'],
    ['ends a head left open at the body', '<head><meta charset="utf-8"><body><p>Amount:</p>', 'Amount:'],
    ['keeps a lone "<" as text instead of swallowing what follows', '<p>1 < 2 and 3 > 2</p>', '1 < 2 and 3 > 2'],
  ])('%s', (_case, html, text) => {
    expect(flattenHtml(html)).toBe(text);
  });

  it('reads hostile HTML to its end without a tree: unclosed tags, comments and "<" leave the text readable', () => {
    expect(flattenHtml(`${'<div><span>'.repeat(10_000)}Amount: $1.00`)).toBe('Amount: $1.00');
    expect(flattenHtml(`<p>Amount: $1.00</p>${'<'.repeat(10_000)}`)).toBe(`Amount: $1.00\n${'<'.repeat(10_000)}`);
    expect(flattenHtml('<p>Amount: $1.00</p><!-- never closed <p>PP-7K3M9Q</p>')).toBe('Amount: $1.00');
    expect(flattenHtml('<p>Amount: $1.00</p><style>p { } <p>PP-7K3M9Q</p>')).toBe('Amount: $1.00');
  });
});
