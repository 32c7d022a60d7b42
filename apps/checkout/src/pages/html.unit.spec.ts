import { html } from './html';

describe('html template', () => {
  it('escapes every interpolation, including inside attributes', () => {
    const name = `<script>alert("x")</script>' onmouseover=\`y\``;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#96;y&#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#96;y&#96;</p>',
    );
  });

  it('keeps nested templates and arrays of them as markup, and drops null, undefined and false', () => {
    const items = ['a&b', '<c>'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.value).toBe('<ul><li>a&amp;b</li><li>&lt;c&gt;</li></ul>0');
  });
});
