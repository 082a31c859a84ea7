// Syntax highlighting by file extension (highlight.js core with common languages), split into lines so a
// virtualized diff can show any one line. highlight.js escapes the text; plain lines are escaped here.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = { bash, c, cpp, css, go, java, javascript, json, markdown, python, rust, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);

const BY_EXTENSION: Record<string, keyof typeof LANGUAGES> = {
  sh: 'bash', bash: 'bash', zsh: 'bash', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', hpp: 'cpp', css: 'css', scss: 'css',
  go: 'go', java: 'java', js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript', json: 'json',
  md: 'markdown', markdown: 'markdown', py: 'python', rs: 'rust', sql: 'sql', ts: 'typescript', tsx: 'typescript',
  mts: 'typescript', cts: 'typescript', html: 'xml', htm: 'xml', xml: 'xml', svg: 'xml', yml: 'yaml', yaml: 'yaml',
};

/** Beyond this size a file is shown plain: highlighting it would stall the page. */
const HIGHLIGHT_LIMIT = 300_000;

export function languageFor(path: string): string | undefined {
  const extension = /\.([^./\\]+)$/.exec(path)?.[1]?.toLowerCase();
  return extension ? BY_EXTENSION[extension] : undefined;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Splits highlighted HTML into lines, closing spans at each line end and reopening them on the next. */
export function splitHighlighted(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let current = '';
  for (const part of html.split(/(<span[^>]*>|<\/span>|\r?\n)/)) {
    if (part.startsWith('<span')) {
      open.push(part);
      current += part;
    } else if (part === '</span>') {
      open.pop();
      current += part;
    } else if (part === '\n' || part === '\r\n') {
      lines.push(current + '</span>'.repeat(open.length));
      current = open.join('');
    } else {
      current += part;
    }
  }
  lines.push(current);
  return lines;
}

/** One HTML string per line of `text`, highlighted when the path's language is known. */
export function highlightLines(text: string, path: string): string[] {
  const language = languageFor(path);
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (text === '') return [];
  if (!language || text.length > HIGHLIGHT_LIMIT) return body.split(/\r?\n/).map(escapeHtml);
  return splitHighlighted(hljs.highlight(body, { language, ignoreIllegals: true }).value);
}
