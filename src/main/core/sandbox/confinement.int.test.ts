// Attacks from inside a task, through a real agent process in the real sandbox: what the agent tries from its
// own process (the hostile agent) and what it runs in a terminal (the scripted agent) stays inside the task.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from '../git/git-test-fixture';
import { desksPerTest, policyAllowing, scriptedAgent, taskEvents, TEST_TOKEN, type Desk } from '../test-support/desk-harness';
import type { Attack, AttackResult } from './test-support/hostile-agent';
import { hostileAgent, processesWith, sandboxForTests } from './test-support/sandbox-for-tests';

const { skip } = await sandboxForTests();
const CANARY = `desk-canary-${process.pid}-${Date.now()}`;

describe.skipIf(skip)(`an agent in the sandbox${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const openDesk = desksPerTest();
  let home: string;
  const saved = { HOME: process.env.HOME, canary: process.env.DESK_TEST_CANARY };

  beforeAll(() => {
    // A home of our own with credentials in it, and a secret in the desk's environment.
    home = mkdtempSync(join(tmpdir(), 'desk-home-'));
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh', 'id_ed25519'), `${CANARY}-ssh-key`);
    writeFileSync(join(home, '.git-credentials'), `https://me:${CANARY}@example.com`);
    process.env.HOME = home;
    process.env.DESK_TEST_CANARY = CANARY;
  });
  afterAll(() => {
    process.env.HOME = saved.HOME;
    if (saved.canary === undefined) delete process.env.DESK_TEST_CANARY;
    else process.env.DESK_TEST_CANARY = saved.canary;
    rmSync(home, { recursive: true, force: true });
  });

  async function attack(desk: Desk, id: string, attacks: Attack[]): Promise<{ report: AttackResult[]; commit: string }> {
    const submitted = await desk.api('POST', '/', { id, prompt: JSON.stringify(attacks), agent: 'hostile' });
    expect(submitted.status).toBe(202);
    await desk.waitForStatus(id, ['completed', 'error']);
    const detail = (await desk.api('GET', `/tasks/${id}`)).json;
    expect(detail.errorMessage).toBeUndefined();
    const report = JSON.parse(git(desk.repo, 'show', `${detail.commit}:attack-report.json`)) as AttackResult[];
    return { report, commit: detail.commit };
  }

  const resultOf = (report: AttackResult[], index: number): AttackResult => report[index] as AttackResult;

  it('cannot read the desk\'s token, database or environment, nor the person\'s credentials', async () => {
    const desk = await openDesk({ agents: [scriptedAgent(), hostileAgent()] });
    const { report, commit } = await attack(desk, 'secrets', [
      { read: join(desk.dataDir, 'token') },
      { read: join(desk.dataDir, 'desk.sqlite') },
      { read: join(home, '.ssh', 'id_ed25519') },
      { read: join(home, '.git-credentials') },
      { readParentEnviron: true },
      { readEveryEnviron: true },
      { exec: 'env' },
    ]);
    expect(resultOf(report, 0)).toMatchObject({ ok: false });
    expect(resultOf(report, 1)).toMatchObject({ ok: false });
    expect(resultOf(report, 2).output ?? '').toBe('');
    expect(resultOf(report, 3).output ?? '').toBe('');
    const everything = JSON.stringify(report) + git(desk.repo, 'show', commit) + JSON.stringify(await taskEvents(desk, 'secrets'));
    expect(everything).not.toContain(CANARY);
    expect(everything).not.toContain(TEST_TOKEN);
  });

  it('cannot write outside its worktree, into the person\'s checkout or the desk\'s data', async () => {
    const desk = await openDesk({ agents: [scriptedAgent(), hostileAgent()] });
    const outside = join(desk.root, 'outside.txt');
    const { report, commit } = await attack(desk, 'writes', [
      { write: 'inside.txt', text: 'mine' },
      { write: outside, text: 'escaped' },
      { write: join(desk.repo, 'README.md'), text: 'overwritten' },
      { write: join(desk.dataDir, 'planted'), text: 'x' },
      { exec: `echo escaped > ${join(tmpdir(), `desk-escape-${process.pid}`)}` },
    ]);
    // The data dir is an empty scratch space in there, and this test's /tmp is the task's own: a write may land
    // there, never in the real place.
    expect(resultOf(report, 0).ok).toBe(true);
    expect(existsSync(join(desk.dataDir, 'planted'))).toBe(false);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(tmpdir(), `desk-escape-${process.pid}`))).toBe(false);
    expect(readFileSync(join(desk.repo, 'README.md'), 'utf8')).toBe('# Fixture\n');
    expect(git(desk.repo, 'show', `${commit}:inside.txt`)).toBe('mine');
  });

  it('cannot make git run its programs, for the desk or for the person, nor relink its worktree', async () => {
    const desk = await openDesk({ agents: [scriptedAgent(), hostileAgent()] });
    const marker = join(desk.root, 'git-ran-something');
    const configBefore = readFileSync(join(desk.repo, '.git', 'config'), 'utf8');
    const { report, commit } = await attack(desk, 'git-steer', [
      { write: '.gitattributes', text: '* filter=evil diff=evil\n' },
      { exec: `git config filter.evil.clean 'touch ${marker}'` },
      { exec: `git config core.fsmonitor 'touch ${marker}'` },
      { exec: `git config core.hooksPath /tmp` },
      { exec: `mkdir -p ../../hooks-of-mine; git config --worktree core.hooksPath ../../hooks-of-mine` },
      { write: '.git', text: `gitdir: ${join(desk.root, 'elsewhere', '.git')}\n` },
      { exec: `printf '#!/bin/sh\\ntouch ${marker}\\n' > "$(git rev-parse --git-common-dir)/hooks/pre-commit"` },
    ]);
    expect(report.map((r) => r.ok)).toEqual([true, false, false, false, false, false, false]);
    expect(readFileSync(join(desk.repo, '.git', 'config'), 'utf8')).toBe(configBefore);
    expect(existsSync(marker)).toBe(false);
    expect(git(desk.repo, 'show', `${commit}:.gitattributes`)).toContain('filter=evil');
    // The person's own next commit runs nothing either.
    writeFileSync(join(desk.repo, 'person.txt'), 'mine\n');
    git(desk.repo, 'add', 'person.txt');
    git(desk.repo, 'commit', '-q', '-m', 'person');
    expect(existsSync(marker)).toBe(false);
  });

  it('has no network: a server on the desk\'s loopback sees no connection, and the desk\'s port leads only to its MCP server', async () => {
    let connections = 0;
    const server: Server = createServer((socket) => { connections++; socket.destroy(); });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const desk = await openDesk({ agents: [scriptedAgent(), hostileAgent()] });
      const { report } = await attack(desk, 'net', [
        { connect: `127.0.0.1:${port}` }, { get: `${desk.url}/` }, { get: `${desk.url}/api/tasks` }, { get: `${desk.url}/mcp` },
      ]);
      expect(report.map((r) => r.ok)).toEqual([false, false, false, false]);
      expect(connections).toBe(0);
      // The relay to the desk's MCP server answers every other path itself: the desk never sees those requests.
      expect(report.slice(1, 3).map((r) => r.output)).toEqual([expect.stringMatching(/^404 .*"mcp_only"/), expect.stringMatching(/^404 .*"mcp_only"/)]);
      // /mcp reaches the desk, which wants the task's own MCP token (this agent declared no MCP support, so it has none).
      expect(report[3]?.output).toMatch(/^401 .*MCP token/);
    } finally {
      server.close();
    }
  });

  it('gains nothing by going around the bridge in its own process: the one socket bound in answers only /mcp, and only with a token', async () => {
    const desk = await openDesk({ agents: [scriptedAgent(), hostileAgent()] });
    const { report } = await attack(desk, 'around', [{ getOverBoundSockets: '/api/tasks' }, { getOverBoundSockets: '/mcp' }]);
    // The bridge lives in the agent's own Node, so the agent can always skip it and talk to the relay's socket itself.
    expect(report[0]?.output).toMatch(/^mcp\.sock 404 .*"mcp_only"[^\n]*$/);
    expect(report[1]?.output).toMatch(/^mcp\.sock 401 .*MCP token[^\n]*$/);
  });

  it('runs a Node agent with its allowlist and MCP relay and no bridge process: its own Node is the only one in the sandbox', async () => {
    const vendor = { ...hostileAgent(), id: 'vendor', networkHosts: ['api.example.com'] };
    const desk = await openDesk({ agents: [scriptedAgent(), vendor] });
    await desk.api('POST', '/', { id: 'alone', agent: 'vendor', prompt: JSON.stringify([
      { exec: 'for p in /proc/[0-9]*; do [ "$p" = /proc/$$ ] || tr "\\0" " " < $p/cmdline 2>/dev/null; echo; done' },
    ]) });
    await desk.waitForStatus('alone', 'completed');
    const task = (await desk.api('GET', '/tasks/alone')).json;
    const report = JSON.parse(git(desk.repo, 'show', `${task.commit}:attack-report.json`)) as AttackResult[];
    const commands = (report[0]?.output ?? '').split('\n').filter((line) => line.trim() !== '');
    // Under tests tsx's esbuild service runs beside the agent too; of Node processes there is one: the agent.
    const nodes = commands.filter((line) => /(^|\/)node$/.test(line.split(' ')[0] ?? ''));
    expect(nodes).toHaveLength(1);
    expect(nodes[0]).toMatch(/--require \S*sandbox-net-preload-\w+\.cjs .*hostile-agent\.ts/);
    expect(commands.filter((line) => line.includes('sandbox-net-bridge'))).toEqual([]);
  });

  it('reaches only the hosts its allowlist names, through the desk\'s proxy, and the refusal is logged', async () => {
    const server = createHttpServer((_request, response) => response.end('allowed service'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const vendor = { ...hostileAgent(), id: 'vendor', networkHosts: [`127.0.0.1:${port}`] };
      const desk = await openDesk({ agents: [scriptedAgent(), vendor] });
      await desk.api('POST', '/', { id: 'allow', agent: 'vendor', prompt: JSON.stringify([
        { getThroughProxy: `http://127.0.0.1:${port}/` },
        { getThroughProxy: `http://127.0.0.1:${port + 1}/` },
        { get: `http://127.0.0.1:${port}/`, timeoutMs: 15_000 },
      ]) });
      await desk.waitForStatus('allow', 'completed');
      const task = (await desk.api('GET', '/tasks/allow')).json;
      const report = JSON.parse(git(desk.repo, 'show', `${task.commit}:attack-report.json`)) as AttackResult[];
      expect(resultOf(report, 0)).toMatchObject({ ok: true, output: '200 allowed service' });
      expect(resultOf(report, 1)).toMatchObject({ ok: false, output: expect.stringMatching(/^403/) });
      // Named with its port, a loopback endpoint also answers at its own address, for agents that ignore the proxy.
      expect(resultOf(report, 2)).toMatchObject({ ok: true, output: '200 allowed service' });
      const logs = (await taskEvents(desk, 'allow')).flatMap((event) => (event.type === 'log' ? [event.text] : []));
      expect(logs).toContainEqual(`Network: refused 127.0.0.1:${port + 1} (not in the agent's allowlist): add "127.0.0.1:${port + 1}" to the policy's network to allow it.`);
    } finally {
      server.close();
    }
  });

  it('says once, as information, that its vendor\'s host is kept out while the policy points it at a gateway on loopback', async () => {
    const gateway = createHttpServer((_request, response) => response.end('gateway'));
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const port = (gateway.address() as { port: number }).port;
    try {
      const vendor = { ...hostileAgent(), id: 'vendor', name: 'Vendor Code', networkHosts: ['api.vendor.example', 'stats.vendor.example'], env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` } };
      const desk = await openDesk({ agents: [scriptedAgent(), vendor], policy: { version: 1, agents: { vendor: { network: [`127.0.0.1:${port}`] } } } });
      await desk.api('POST', '/', { id: 'gateway', agent: 'vendor', prompt: JSON.stringify([
        { getThroughProxy: 'http://api.vendor.example/' },
        { getThroughProxy: 'http://stats.vendor.example/' },
        { getThroughProxy: 'http://elsewhere.example/' },
      ]) });
      await desk.waitForStatus('gateway', 'completed');
      const lines = (await taskEvents(desk, 'gateway')).flatMap((event) => (event.type === 'log' && event.text.startsWith('Network:') ? [event] : []));
      expect(lines.map(({ level, text }) => ({ level, text }))).toEqual([
        { level: 'info', text: `Network: Vendor Code also tries api.vendor.example:80, its vendor's own service; the sandbox keeps it out, as the policy sends it to 127.0.0.1:${port} (ANTHROPIC_BASE_URL) instead.` },
        { level: 'warn', text: 'Network: refused elsewhere.example:80 (not in the agent\'s allowlist): add "elsewhere.example" to the policy\'s network to allow it.' },
      ]);
    } finally {
      gateway.close();
    }
  });

  it('reaches a loopback model endpoint the policy names at its own address, and no other loopback port, nor the desk\'s API', async () => {
    const model = createHttpServer((_request, response) => response.end('model here'));
    let otherConnections = 0;
    const other: Server = createServer((socket) => { otherConnections++; socket.destroy(); });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const modelPort = (model.address() as { port: number }).port;
    const otherPort = (other.address() as { port: number }).port;
    try {
      const vendor = { ...hostileAgent(), id: 'vendor', networkHosts: [`127.0.0.1:${modelPort}`] };
      const desk = await openDesk({ agents: [scriptedAgent(), vendor] });
      await desk.api('POST', '/', { id: 'loopback', agent: 'vendor', prompt: JSON.stringify([
        // Three hops (bridge, proxy, server) on a loaded machine can take longer than a refusal: allow for it.
        { get: `http://127.0.0.1:${modelPort}/v1/messages`, timeoutMs: 15_000 },
        { exec: `node -e "fetch('http://127.0.0.1:${modelPort}/').then(async (r) => console.log(r.status, await r.text()))"` },
        { connect: `127.0.0.1:${otherPort}` },
        { getThroughProxy: `http://127.0.0.1:${otherPort}/` },
        { get: `${desk.url}/api/tasks` },
        { getThroughProxy: `${desk.url}/api/tasks` },
      ]) });
      await desk.waitForStatus('loopback', 'completed');
      const task = (await desk.api('GET', '/tasks/loopback')).json;
      const report = JSON.parse(git(desk.repo, 'show', `${task.commit}:attack-report.json`)) as AttackResult[];
      expect(report.map((r) => [r.ok, r.output ?? r.error])).toEqual([
        [true, '200 model here'],
        [true, '200 model here\n'],
        [false, 'ECONNREFUSED'],
        [false, expect.stringMatching(/^403 /)],
        [false, expect.stringMatching(/^404 .*"mcp_only"/)],
        [false, expect.stringMatching(/^403 /)],
      ]);
      expect(otherConnections).toBe(0);
    } finally {
      model.close();
      other.close();
    }
  });

  it('says at the start which loopback endpoint its base URL names that the policy leaves out, and what to add', async () => {
    const vendor = { ...hostileAgent(), id: 'vendor', env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:4999' }, networkHosts: ['api.anthropic.com'] };
    const desk = await openDesk({ agents: [scriptedAgent(), vendor] });
    await desk.api('POST', '/', { id: 'pointed', agent: 'vendor', prompt: JSON.stringify([]) });
    await desk.waitForStatus('pointed', 'completed');
    const events = await taskEvents(desk, 'pointed');
    const logs = events.flatMap((event) => (event.type === 'log' ? [event.text] : []));
    const notice = 'The agent\'s ANTHROPIC_BASE_URL points at 127.0.0.1:4999, which the sandbox keeps out of reach: add "127.0.0.1:4999" to the policy\'s network.';
    expect(logs).toContain(notice);
    // Said before the agent starts, not after it has stalled.
    expect(logs.indexOf(notice)).toBeLessThan(logs.findIndex((text) => text.startsWith('Started ')));
  });

  it('leaves nothing running after a cancel, not even a double-forked process that ignores TERM and HUP', async () => {
    const desk = await openDesk({ agents: [scriptedAgent(), hostileAgent()] });
    const marker = `desk-survivor-${process.pid}-cancel`;
    await desk.api('POST', '/', { id: 'survivor', prompt: JSON.stringify([{ leaveSurvivor: marker }, { sleep: 60_000 }]), agent: 'hostile' });
    await until(() => processesWith(marker).length > 0);
    const cancelledAt = Date.now();
    expect((await desk.api('DELETE', '/survivor')).status).toBe(200);
    await until(() => processesWith(marker).length === 0, 3000);
    expect(Date.now() - cancelledAt).toBeLessThan(3000);
  });

  it('leaves nothing running once its task has completed, not even a double-forked process that ignores TERM and HUP', async () => {
    const desk = await openDesk({ agents: [scriptedAgent(), hostileAgent()] });
    const marker = `desk-survivor-${process.pid}-completed`;
    await attack(desk, 'finished', [{ leaveSurvivor: marker }]);
    expect(processesWith(marker)).toEqual([]);
  });

  it('runs terminal commands in the sandbox too: no secrets, no survivors', async () => {
    const desk = await openDesk({ policy: policyAllowing('execute') });
    const marker = `desk-survivor-${process.pid}-terminal`;
    const submitted = await desk.api('POST', '/', {
      id: 'terminal',
      prompt: [
        `run cat /proc/$PPID/environ /proc/1/environ ${join(desk.dataDir, 'token')} ${join(home, '.ssh', 'id_ed25519')}; echo done`,
        `run sh -c '(setsid sh -c "trap \\"\\" TERM HUP; while :; do sleep 1; done" ${marker} &); sleep 600'`,
      ].join('\n'),
    });
    expect(submitted.status).toBe(202);
    await until(() => processesWith(marker).length > 0, 15_000);
    expect((await desk.api('DELETE', '/terminal')).status).toBe(200);
    await until(() => processesWith(marker).length === 0, 3000);
    const events = JSON.stringify(await taskEvents(desk, 'terminal'));
    expect(events).toContain('done');
    expect(events).not.toContain(CANARY);
    expect(events).not.toContain(TEST_TOKEN);
  });
});

/** Polls `check` every 50 ms; fails after `limitMs`. The processes it looks for are the sandboxed agent's, found by marker: no event tells the test they started or ended. */
async function until(check: () => boolean, limitMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > limitMs) throw new Error(`Condition not met within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
