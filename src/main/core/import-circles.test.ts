// The core's files import one way: no file reaches itself again through its imports (type imports count too: a
// circle of types is a circle of ideas). The floors are in docs/architecture.md.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = import.meta.dirname;
/** The contract: the same rule holds there (it imports nothing but zod and itself). */
const SHARED = resolve(CORE, '../../shared');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The files under `root` a file imports: every relative `from '…'`, `import '…'` and `import('…')` that lands there. */
export function coreImportsOf(file: string, source: string, root = CORE): string[] {
  const specifiers = [...source.matchAll(/(?:from\s+|import\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!);
  return specifiers.flatMap((specifier) => {
    const base = resolve(dirname(file), specifier);
    const target = [`${base}.ts`, join(base, 'index.ts'), base].find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
    return target && target.startsWith(root) ? [target] : [];
  });
}

/** Strongly connected groups of more than one file (Tarjan), or a file importing itself. */
export function importCircles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      group.push(member);
      if (member === node) break;
    }
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) circles.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

/** Every circle among the files under `root`, each as its files joined by arrows. */
function circlesUnder(root: string): string[] {
  const graph = new Map(sourceFiles(root).map((file) => [file, coreImportsOf(file, readFileSync(file, 'utf8'), root)]));
  return importCircles(graph).map((group) => group.map((file) => relative(root, file)).join(' → '));
}

describe('imports in src/main/core', () => {
  it('form no circle', () => {
    expect(circlesUnder(CORE)).toEqual([]);
  });

  it('form no circle in src/shared either', () => {
    expect(circlesUnder(SHARED)).toEqual([]);
  });

  it('finds a circle when there is one, type imports included', () => {
    const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']], ['e', ['e']]]);
    expect(importCircles(graph)).toEqual([['a', 'b', 'c'], ['e']]);
  });

  it('reads static, type-only and dynamic imports', () => {
    const file = join(CORE, 'tasks', 'example.ts');
    const source = "import type { X } from './task-runner';\nimport { y } from '../agents/connect-agent';\nconst m = await import('./task-service');\nimport 'node:fs';";
    expect(coreImportsOf(file, source).map((path) => relative(CORE, path))).toEqual(['tasks/task-runner.ts', 'agents/connect-agent.ts', 'tasks/task-service.ts']);
  });
});
