import ReactMarkdown, { type Components } from 'react-markdown';

// Headings step down one level: the page's own title is its only <h1>.
const components: Components = {
  h1: ({ node: _node, ...props }) => <h2 className="mb-3 mt-8 text-2xl font-bold" {...props} />,
  h2: ({ node: _node, ...props }) => <h2 className="mb-3 mt-8 text-2xl font-bold" {...props} />,
  h3: ({ node: _node, ...props }) => <h3 className="mb-2 mt-6 text-xl font-semibold" {...props} />,
  h4: ({ node: _node, ...props }) => <h4 className="mb-2 mt-5 text-lg font-semibold" {...props} />,
  h5: ({ node: _node, ...props }) => <h5 className="mb-2 mt-4 font-semibold" {...props} />,
  h6: ({ node: _node, ...props }) => <h6 className="mb-2 mt-4 font-semibold" {...props} />,
  p: ({ node: _node, ...props }) => <p className="my-3" {...props} />,
  ul: ({ node: _node, ...props }) => <ul className="my-3 list-disc space-y-1 pl-6" {...props} />,
  ol: ({ node: _node, ...props }) => <ol className="my-3 list-decimal space-y-1 pl-6" {...props} />,
  // A link whose address the URL check emptied (javascript: and the like) is its text alone, not a link to this page.
  a: ({ node: _node, href, ...props }) => (href ? <a href={href} className="link link-primary break-words" {...props} /> : <span {...props} />),
  blockquote: ({ node: _node, ...props }) => <blockquote className="my-4 border-l-4 border-base-300 pl-4 text-base-content/80" {...props} />,
  hr: ({ node: _node, ...props }) => <hr className="my-8 border-base-300" {...props} />,
  code: ({ node: _node, ...props }) => <code className="rounded bg-base-200 px-1 py-0.5 text-[0.9em]" {...props} />,
  pre: ({ node: _node, ...props }) => (
    <pre className="my-4 overflow-x-auto rounded-box bg-base-200 p-4 text-sm [&>code]:bg-transparent [&>code]:p-0" {...props} />
  ),
  table: ({ node: _node, ...props }) => (
    <div className="my-4 overflow-x-auto">
      <table className="table" {...props} />
    </div>
  ),
  img: ({ node: _node, alt, ...props }) => <img alt={alt ?? ''} className="my-4 h-auto max-w-full" loading="lazy" {...props} />,
};

/**
 * A legal page's Markdown as the page shows it, the editor's preview too. react-markdown builds
 * React elements, never HTML strings: raw HTML in the text appears as plain text (no rehype-raw), and
 * its default URL check empties javascript:, vbscript: and data: links.
 */
export function Markdown({ children }: { children: string }) {
  return (
    <div className="break-words leading-relaxed [&>:first-child]:mt-0">
      <ReactMarkdown components={components}>{children}</ReactMarkdown>
    </div>
  );
}

/**
 * The page's heading and the text below it: a first line `# Heading` is the seller's own title for
 * the page, else the page's usual one.
 */
export function splitHeading(markdown: string, fallback: string): { heading: string; body: string } {
  // Read by hand, not with one regular expression: a long line of hashes would make one backtrack.
  const start = markdown.search(/\S/);
  if (start < 0 || !markdown.startsWith('# ', start)) return { heading: fallback, body: markdown };
  const end = markdown.indexOf('\n', start);
  const line = markdown.slice(start + 2, end < 0 ? undefined : end).trim();
  // A closing run of hashes after a space is Markdown's, not the heading's.
  let cut = line.length;
  while (cut > 0 && line[cut - 1] === '#') cut--;
  const heading = (cut === line.length || cut === 0 || line[cut - 1] === ' ' ? line.slice(0, cut) : line).trim();
  if (!heading) return { heading: fallback, body: markdown };
  return { heading, body: end < 0 ? '' : markdown.slice(end + 1) };
}
