// The agent's state on the docker runner: a container gets a home of the task's own with a copy of the agent's state,
// never a bind of the person's. What its commands plant there stays with the task (its next turn sees it), the next
// task sees the person's state, and only a refreshed login goes back to the person's home.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { desksPerTest, scriptedAgent, taskEvents, type Desk } from '../../src/main/core/test-support/desk-harness';
import { dockerRunnersFor } from './docker-test-config';

const host = inject('dockerHost');
const image = inject('dockerImage');
const skipReason = inject('dockerSkip');

/** A command line running `script` in the Node the test image shares with this machine, `f` being node:fs. */
function node(script: string): string {
  return `${process.execPath} -e "const f=require('fs');${script}"`;
}

async function terminalOutput(desk: Desk, id: string): Promise<string> {
  return (await taskEvents(desk, id)).flatMap((event) => (event.type === 'terminal-output' ? [event.data] : [])).join('');
}

if (!host) describe.skip(`the agent's state on the docker runner (skipped: ${skipReason})`, () => { it('needs Docker', () => {}); });
else describe('the agent\'s state on the docker runner', () => {
  const openDesk = desksPerTest();
  let home: string;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'desk-docker-home-'));
    mkdirSync(join(home, '.claude'));
    writeFileSync(join(home, '.claude', 'settings.json'), 'person');
    writeFileSync(join(home, '.claude', '.credentials.json'), 'person-login');
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('gives the container the task\'s own copy of the agent\'s state, keeps its writes for the task, and hands back only the login', async () => {
    const claudeLike = { ...scriptedAgent(), id: 'claude-like', env: { HOME: home }, stateDirs: ['~/.claude'], stateFiles: ['~/.claude.json'], loginFiles: ['~/.claude/.credentials.json'] };
    const desk = await openDesk({ agents: [scriptedAgent(), claudeLike], runners: dockerRunnersFor(host, image), policy: { version: 1, defaults: { capabilities: { execute: 'allow' } } } });
    // The test image has Node and a shell, no coreutils: the commands are Node's.
    const plant = node("const h=process.env.HOME;console.log(f.readFileSync(h+'/.claude/settings.json','utf8'),f.readFileSync(h+'/.claude/.credentials.json','utf8'));"
      + "f.writeFileSync(h+'/.claude/settings.json','hook');f.writeFileSync(h+'/.claude/.credentials.json','refreshed');"
      + "f.writeFileSync(h+'/.claude.json.tmp','{}');f.renameSync(h+'/.claude.json.tmp',h+'/.claude.json');console.log('planted')");
    await desk.api('POST', '/', { id: 'plant', agent: 'claude-like', runner: 'docker', prompt: `run ${plant}\nwrite work.txt done` });
    expect(await desk.waitForStatus('plant', ['completed', 'error'], 120_000)).toBe('completed');
    expect(await terminalOutput(desk, 'plant')).toMatch(/person\s*person-login\s*planted/);

    expect(readdirSync(home).sort()).toEqual(['.claude']);
    expect(readdirSync(join(home, '.claude')).sort()).toEqual(['.credentials.json', 'settings.json']);
    expect(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')).toBe('person');
    expect(readFileSync(join(home, '.claude', '.credentials.json'), 'utf8')).toBe('refreshed');

    const show = node("const h=process.env.HOME;console.log(f.readFileSync(h+'/.claude/settings.json','utf8')+'|'+f.readFileSync(h+'/.claude.json','utf8'))");
    expect((await desk.api('POST', '/tasks/plant/prompt', { prompt: `run ${show}\nwrite more.txt done` })).status).toBe(202);
    expect(await desk.waitForStatus('plant', ['completed', 'error'], 120_000)).toBe('completed');
    expect(await terminalOutput(desk, 'plant')).toContain('hook|{}');

    const look = node("const h=process.env.HOME;console.log(f.readFileSync(h+'/.claude/settings.json','utf8'),f.readdirSync(h).join(','))");
    await desk.api('POST', '/', { id: 'next', agent: 'claude-like', runner: 'docker', prompt: `run ${look}\nwrite next.txt done` });
    expect(await desk.waitForStatus('next', ['completed', 'error'], 120_000)).toBe('completed');
    const seen = await terminalOutput(desk, 'next');
    expect(seen).toContain('person');
    expect(seen).not.toContain('hook');
    expect(seen).not.toContain('.claude.json');
  });
});
