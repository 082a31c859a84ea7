// Every relative link in the README and docs/ reaches a file that exists and, with a #fragment, a heading in it:
// the reference moved into docs/ pages, and a renamed heading or page must not leave a dead link behind.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2, … */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    const heading = !inCode && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The targets of `[text](target)` outside code blocks, left out: web addresses and mail. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.split(/^```.*$/m).filter((_, index) => index % 2 === 0).join('\n');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/i.test(target));
}

describe('links between the README and docs/', () => {
  it.each(PAGES)('every relative link in %s resolves to a file and heading', (page) => {
    const broken: string[] = [];
    for (const target of relativeLinks(readFileSync(join(ROOT, page), 'utf8'))) {
      const [path, fragment] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
      if (!existsSync(file)) broken.push(`${target} (no such file)`);
      else if (fragment && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(fragment)) broken.push(`${target} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });

  it('keeps the README a front door of at most 16 KB', () => {
    expect(readFileSync(join(ROOT, 'README.md')).length).toBeLessThanOrEqual(16 * 1024);
  });
});
