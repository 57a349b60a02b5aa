import { describe, expect, it } from 'vitest';
import { escapeMarkup, headTags, jsonForScript, splitAtHead, summarize, withoutIconLinks } from './page-head.ts';

describe('summarize', () => {
  it('keeps a short text as it is, on one line', () => {
    expect(summarize('Learn  SQL\n\nstep by step. ')).toBe('Learn SQL step by step.');
  });

  it('cuts a long text at the end of a word, with an ellipsis, within the limit', () => {
    const text =
      'Budgeting that sticks, an emergency fund, understanding interest and debt, and the basics of long-term investing for everyone who earns money.';
    const cut = summarize(text, 60);
    expect(cut).toBe('Budgeting that sticks, an emergency fund, understanding…');
    expect(Array.from(cut).length).toBeLessThanOrEqual(60);
    expect(text.startsWith(cut.slice(0, -1))).toBe(true);
  });

  it('keeps a word that ends exactly at the limit whole', () => {
    expect(summarize('aaaa bbbb cccc dddd', 10)).toBe('aaaa bbbb…');
  });

  it('cuts a single word longer than the limit inside it', () => {
    expect(summarize('x'.repeat(500), 20)).toBe(`${'x'.repeat(19)}…`);
  });

  it('counts characters, not UTF-16 units, and never splits one', () => {
    const cut = summarize('😀'.repeat(300), 10);
    expect(Array.from(cut)).toHaveLength(10);
    expect(cut).toBe(`${'😀'.repeat(9)}…`);
  });
});

describe('headTags', () => {
  const head = {
    title: 'Tags "<b>" & <script>alert(1)</script> · LMS',
    description: `It's "quoted" <img src=x onerror=alert(1)> & more`,
    siteName: 'LMS',
    url: 'https://learn.example.com/course/description?id=1&x=<y>',
    image: { url: 'https://cdn.example.com/t.webp?a=1&b="2"', width: 640, height: 360, alt: 'A "title"' },
  };

  it('escapes every value, so nothing breaks out of a tag or an attribute', () => {
    const tags = headTags(head);
    expect(tags).not.toMatch(/<script|<img|<b>/);
    // Every tag is one of ours, and every attribute value is closed where we closed it.
    for (const line of tags.trim().split('\n')) {
      expect(line.trim()).toMatch(/^(<title>[^<>]*<\/title>|<meta (name|property)="[\w:]+" content="[^"<>]*" \/>|<link rel="canonical" href="[^"<>]*" \/>)$/);
    }
    expect(tags).toContain('<title>Tags &quot;&lt;b&gt;&quot; &amp; &lt;script&gt;alert(1)&lt;/script&gt; · LMS</title>');
    expect(tags).toContain('<meta name="description" content="It&#39;s &quot;quoted&quot; &lt;img src=x onerror=alert(1)&gt; &amp; more" />');
    expect(tags).toContain('<link rel="canonical" href="https://learn.example.com/course/description?id=1&amp;x=&lt;y&gt;" />');
  });

  it('leaves out the URL and image tags where there are none, and asks not to be indexed when told', () => {
    const tags = headTags({ title: 'LMS', description: 'About', siteName: 'LMS', noindex: true });
    expect(tags).not.toMatch(/canonical|og:url|og:image|twitter:image/);
    expect(tags).toContain('<meta name="robots" content="noindex" />');
    expect(tags).toContain('<meta name="twitter:card" content="summary" />');
  });

  it('is the same text escapeMarkup gives', () => {
    expect(escapeMarkup(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});

describe('splitAtHead', () => {
  it("takes out the page's own title, description, link preview and canonical tags", () => {
    const page = [
      '<!doctype html>',
      '<html lang="en">',
      '  <head>',
      '    <meta charset="UTF-8" />',
      '    <title>Old</title>',
      '    <meta name="description" content="old" />',
      '    <meta property="og:title" content="old" />',
      '    <meta name="twitter:card" content="summary" />',
      '    <link rel="canonical" href="/old" />',
      '    <script type="module" src="/assets/app.js"></script>',
      '  </head>',
      '  <body></body>',
      '</html>',
    ].join('\n');
    const { before, after } = splitAtHead(page);
    expect(before).toBe(
      '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <script type="module" src="/assets/app.js"></script>\n',
    );
    expect(after).toBe('</head>\n  <body></body>\n</html>');
  });

  it('refuses a page without </head>', () => {
    expect(() => splitAtHead('<html><body></body></html>')).toThrow(/<\/head>/);
  });
});

describe('jsonForScript', () => {
  it('reads back as the same value, with nothing in it that could end or change a <script>', () => {
    const value = { quote: '</script><script>alert(1)</script> <!-- x --> </SCRIPT \u2028\u2029 & "q"', list: ['<', '>'] };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('withoutIconLinks', () => {
  it('takes out the build’s icons and nothing else', () => {
    const head = [
      '<head>',
      '    <link rel="icon" href="/favicon.ico" sizes="32x32" />',
      '    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />',
      '    <link rel="apple-touch-icon" href="/apple-touch-icon.png" />',
      '    <link rel="stylesheet" href="/assets/app.css">',
      '',
    ].join('\n');
    expect(withoutIconLinks(head)).toBe('<head>\n    <link rel="stylesheet" href="/assets/app.css">\n');
  });
});
