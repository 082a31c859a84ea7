// An agent's message as Markdown: no raw HTML, links open outside the board. Parsed trees are cached by
// text, so rows that scroll out of view and back (or remount) are not parsed again.
import { memo, type ReactElement } from 'react';
import Markdown, { type Components } from 'react-markdown';

const COMPONENTS: Components = {
  a: ({ href, children }) => <a href={href} target="_blank" rel="noreferrer noopener">{children}</a>,
};

const CACHE_SIZE = 400;
const cache = new Map<string, ReactElement>();

/** The rendered tree of `text`; react-markdown's synchronous Markdown uses no hooks, so it can be called here. */
function rendered(text: string): ReactElement {
  const hit = cache.get(text);
  if (hit) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const tree = Markdown({ children: text, skipHtml: true, components: COMPONENTS }) as ReactElement;
  cache.set(text, tree);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return tree;
}

export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  return <div className="md">{rendered(text)}</div>;
});
