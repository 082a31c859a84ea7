// An agent's state in the real sandbox, from an empty home: its state dir and its state file (replaced by rename,
// as Claude Code does with ~/.claude.json) are created and writable, and what it writes there reaches the
// person's home when the task ends; nothing else it writes in the home does.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from '../git/git-test-fixture';
import { desksPerTest, scriptedAgent, taskEvents } from '../test-support/desk-harness';
import type { AttackResult } from './test-support/hostile-agent';
import { hostileAgent, sandboxForTests } from './test-support/sandbox-for-tests';

const { skip } = await sandboxForTests();

describe.skipIf(skip)(`an agent's state in the sandbox${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const openDesk = desksPerTest();
  let scratch: string;
  let agentHome: string;
  const savedHome = process.env.HOME;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'desk-state-'));
    // The desk's own home holds a credential; the agent is given a home of its own that does not exist yet.
    const deskHome = join(scratch, 'desk-home');
    mkdirSync(join(deskHome, '.ssh'), { recursive: true });
    writeFileSync(join(deskHome, '.ssh', 'id_ed25519'), 'secret key');
    process.env.HOME = deskHome;
    agentHome = join(scratch, 'agent-home');
  });
  afterAll(() => {
    process.env.HOME = savedHome;
    rmSync(scratch, { recursive: true, force: true });
  });

  it('creates the state dir and file in an empty home, lets the agent replace the file by rename, and keeps what it wrote there only', async () => {
    const claudeLike = {
      ...hostileAgent(), id: 'claude-like', env: { HOME: agentHome },
      stateDirs: ['~/.claude'], stateFiles: ['~/.claude.json'],
    };
    const desk = await openDesk({ agents: [scriptedAgent(), claudeLike] });
    const rename = 'printf \'{"firstStartTime":"now"}\' > "$HOME/.claude.json.tmp.1" && mv "$HOME/.claude.json.tmp.1" "$HOME/.claude.json"'
      + ' && cp "$HOME/.claude.json" "$HOME/.claude.json.backup.1" && cat "$HOME/.claude.json"';
    await desk.api('POST', '/', { id: 'state', agent: 'claude-like', prompt: JSON.stringify([
      { exec: rename },
      { exec: 'mkdir -p "$HOME/.claude/projects" && echo session > "$HOME/.claude/projects/s.jsonl" && echo ok' },
      { exec: 'echo "$HOME"' },
      { write: `${agentHome}/.profile`, text: 'evil' },
      { read: `${process.env.HOME}/.ssh/id_ed25519` },
    ]) });
    await desk.waitForStatus('state', 'completed');
    const task = (await desk.api('GET', '/tasks/state')).json;
    const report = JSON.parse(git(desk.repo, 'show', `${task.commit}:attack-report.json`)) as AttackResult[];

    expect(report.map((r) => [r.ok, r.output])).toEqual([
      [true, '{"firstStartTime":"now"}'], [true, 'ok\n'], [true, `${agentHome}\n`], [true, undefined], [false, undefined],
    ]);
    expect(readFileSync(join(agentHome, '.claude.json'), 'utf8')).toBe('{"firstStartTime":"now"}');
    expect(readFileSync(join(agentHome, '.claude', 'projects', 's.jsonl'), 'utf8')).toBe('session\n');
    // The temp file, the backup and anything else written in the home stayed in the task's scratch.
    expect(readdirSync(agentHome).sort()).toEqual(['.claude', '.claude.json']);
    expect(existsSync(join(agentHome, '.profile'))).toBe(false);
  });

  it('never copies back a state file the agent turned into a link to something only the desk can read', async () => {
    const secret = join(process.env.HOME ?? '', '.ssh', 'id_ed25519');
    mkdirSync(agentHome, { recursive: true });
    writeFileSync(join(agentHome, '.claude.json'), '{"mine":true}');
    const claudeLike = { ...hostileAgent(), id: 'claude-like', env: { HOME: agentHome }, stateFiles: ['~/.claude.json'] };
    const desk = await openDesk({ agents: [scriptedAgent(), claudeLike] });
    await desk.api('POST', '/', { id: 'link', agent: 'claude-like', prompt: JSON.stringify([
      { exec: `rm -f "$HOME/.claude.json" && ln -s ${secret} "$HOME/.claude.json" && echo linked` },
    ]) });
    await desk.waitForStatus('link', 'completed');
    const logs = (await taskEvents(desk, 'link')).flatMap((event) => (event.type === 'log' ? [event.text] : []));
    expect(readFileSync(join(agentHome, '.claude.json'), 'utf8')).toBe('{"mine":true}');
    expect(logs).toContainEqual(expect.stringContaining(`the agent left ${join(agentHome, '.claude.json')} as something other than a file; it was not copied back`));
  });

  it('shows the agent of the home its state file lives in only the toolchains, never the person\'s other entries', async () => {
    const personHome = process.env.HOME ?? '';
    writeFileSync(join(personHome, 'notes.txt'), 'the person\'s notes');
    mkdirSync(join(personHome, '.cargo', 'bin'), { recursive: true });
    writeFileSync(join(personHome, '.cargo', 'bin', 'tool'), 'a toolchain');
    const claudeLike = { ...hostileAgent(), id: 'claude-like', env: { HOME: personHome }, stateFiles: ['~/.claude.json'] };
    const desk = await openDesk({ agents: [scriptedAgent(), claudeLike] });
    await desk.api('POST', '/', { id: 'notes', agent: 'claude-like', prompt: JSON.stringify([
      { read: `${personHome}/notes.txt` }, { write: `${personHome}/notes.txt`, text: 'overwritten' }, { read: `${personHome}/.cargo/bin/tool` },
    ]) });
    await desk.waitForStatus('notes', 'completed');
    const task = (await desk.api('GET', '/tasks/notes')).json;
    const report = JSON.parse(git(desk.repo, 'show', `${task.commit}:attack-report.json`)) as AttackResult[];
    expect(report[0]).toMatchObject({ ok: false, error: expect.stringMatching(/ENOENT/) });
    expect(report[2]).toMatchObject({ ok: true, output: 'a toolchain' });
    // The write lands in the task's scratch copy of the home, which is thrown away.
    expect(readFileSync(join(personHome, 'notes.txt'), 'utf8')).toBe('the person\'s notes');
  });
});
