// The remembered read view against the machine it was read from: in a real temp home, what changes there shows in
// the next task's view, and what is remembered is what reading afresh would give.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scriptedAgentSpec } from '../agents/builtin-agents';
import { createFixedViews } from './fixed-view';
import { readViewMounts } from './read-view';
import { readViewFactsFor } from './view-facts';

const agent = scriptedAgentSpec('/opt/desk/scripted-agent.js');
const policy = { hiddenPaths: [], readablePaths: [] };
let root: string;
let home: string;
let environment: NodeJS.ProcessEnv;

/** Dates every directory of the home back a minute: a view read from it may then be kept. */
function settle(dir: string): void {
  const past = new Date(Date.now() - 60_000);
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) settle(join(dir, entry.name));
  utimesSync(dir, past, past);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'desk-fixed-view-'));
  home = join(root, 'home');
  mkdirSync(join(home, '.local', 'bin'), { recursive: true });
  mkdirSync(join(home, 'tools', 'one'), { recursive: true });
  mkdirSync(join(home, 'tools', 'two'), { recursive: true });
  mkdirSync(join(home, '.ssh'));
  symlinkSync(join(home, 'tools', 'one', 'tool'), join(home, '.local', 'bin', 'tool'));
  writeFileSync(join(home, 'tools', 'one', 'tool'), '#!/bin/sh\n');
  writeFileSync(join(home, 'tools', 'two', 'tool'), '#!/bin/sh\n');
  environment = { HOME: home, PATH: `${join(home, '.local', 'bin')}:/usr/bin:/bin` };
  settle(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const readAfresh = (tempDir: string) => readViewMounts(readViewFactsFor({ home, tempDir, agent, policy, environment }));
const paths = (mounts: { path: string }[]) => mounts.map((mount) => mount.path);

describe('the remembered read view', () => {
  it('is what reading the machine afresh gives, with each task\'s own temp dir as its /tmp', () => {
    const views = createFixedViews();
    for (const tempDir of [join(root, 'task-1'), join(root, 'task-2')]) {
      expect(views.viewFor({ home, agent, policy, environment }).readView(tempDir)).toEqual(readAfresh(tempDir));
    }
  });

  it('shows a toolchain installed in the home after the last task', () => {
    const views = createFixedViews();
    expect(paths(views.viewFor({ home, agent, policy, environment }).readView('/t'))).not.toContain(join(home, '.cargo'));
    mkdirSync(join(home, '.cargo'));
    expect(paths(views.viewFor({ home, agent, policy, environment }).readView('/t'))).toContain(join(home, '.cargo'));
  });

  it('follows a program on PATH re-pointed to another install', () => {
    const views = createFixedViews();
    expect(paths(views.viewFor({ home, agent, policy, environment }).readView('/t'))).toContain(join(home, 'tools', 'one'));
    unlinkSync(join(home, '.local', 'bin', 'tool'));
    symlinkSync(join(home, 'tools', 'two', 'tool'), join(home, '.local', 'bin', 'tool'));
    const view = paths(views.viewFor({ home, agent, policy, environment }).readView('/t'));
    expect(view).toContain(join(home, 'tools', 'two'));
    expect(view).not.toContain(join(home, 'tools', 'one'));
  });

  it('says a credentials directory made after the last task is there', () => {
    const views = createFixedViews();
    const aws = join(home, '.aws');
    expect(views.viewFor({ home, agent, policy, environment }).kindOf(aws)).toBeUndefined();
    mkdirSync(aws);
    expect(views.viewFor({ home, agent, policy, environment }).kindOf(aws)).toBe('dir');
  });

  it('reads again for another policy', () => {
    const views = createFixedViews();
    views.viewFor({ home, agent, policy, environment });
    const hidden = views.viewFor({ home, agent, policy: { ...policy, hiddenPaths: ['~/tools'] }, environment }).readView('/t');
    expect(hidden).toContainEqual(expect.objectContaining({ kind: 'hide-dir', path: join(home, 'tools') }));
  });
});
