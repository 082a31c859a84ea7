// "Always allow" with Claude (claude-code-acp and claude-agent-acp) through a real desk, its model stood in for on
// 127.0.0.1 (see claude.spec.ts): Claude offers "Always Allow" on a command; the person chooses it; the desk tells
// Claude "Allow" (once), so Claude Code writes no rule into .claude/settings.local.json, and approves Claude's next
// command itself without asking the person again.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import type { ModelStep } from '../../src/main/core/test-support/model-stand-ins/model-script';
import { describeWithAgent } from './agent-availability';
import { CLAUDE_AGENTS, claudeRuns, logLines, WRITE_RUN_SAY } from './claude-desk';

/** Two commands that write files (Claude Code asks for each), after the write. */
const WRITE_AND_TWO_COMMANDS: readonly ModelStep[] = [
  WRITE_RUN_SAY[0]!,
  { kind: 'tool', tool: ['Bash'], input: { command: 'tr a-z A-Z < hello.txt > upper.txt', description: 'Upper-case the file', timeout: 60_000 } },
  { kind: 'tool', tool: ['Bash'], input: { command: 'tr a-z A-Z < hello.txt > shout.txt', description: 'Upper-case it again', timeout: 60_000 } },
  { kind: 'text', text: 'Wrote hello.txt, upper.txt and shout.txt.' },
];

for (const agent of CLAUDE_AGENTS) describeWithAgent(agent, `"Always allow" with ${agent.id} through the desk`, () => {
  const open = claudeRuns(agent);

  it('is kept by the desk, which approves the next command itself, and Claude writes no local settings', async () => {
    const run = await open({ steps: WRITE_AND_TWO_COMMANDS, capabilities: { edit: 'allow', execute: 'ask' } });
    await run.submit('always');

    await run.desk.waitForStatus('always', 'awaiting-input', 60_000);
    const [question] = (await run.desk.api('GET', '/tasks/always')).json.openQuestions;
    const always = (question.options as { optionId: string; kind: string }[]).find((option) => option.kind === 'allow_always');
    expect(always, JSON.stringify(question.options)).toBeDefined();
    expect((await run.desk.api('POST', '/tasks/always/input', { questionId: question.id, optionId: always?.optionId })).status).toBeLessThan(300);

    const status = await run.desk.waitForStatus('always', ['completed', 'error', 'cancelled'], 60_000);
    const events = await run.events('always');
    expect(status, logLines(events).join('\n')).toBe('completed');
    expect(events.filter((event) => event.type === 'question-opened')).toHaveLength(1);
    expect(logLines(events).join('\n')).toMatch(/You chose .*: the desk approves execute requests of .* for the rest of this task without asking\. The agent was answered "Allow" \(once\)/);
    const audit = (await run.desk.api('GET', '/api/governance/requests?task=always')).json.requests as { rule: string; outcome?: string }[];
    expect(audit).toContainEqual(expect.objectContaining({ rule: 'always-allowed-in-task', outcome: 'allowed' }));

    const { commit, worktreePath } = (await run.desk.api('GET', '/tasks/always')).json;
    const committed = execFileSync('git', ['ls-tree', '-r', '--name-only', commit], { cwd: run.desk.repo, encoding: 'utf8' }).split('\n');
    expect(committed).toEqual(expect.arrayContaining(['hello.txt', 'upper.txt', 'shout.txt']));
    expect(committed.filter((path) => path.startsWith('.claude/'))).toEqual([]);
    expect(existsSync(join(worktreePath, '.claude', 'settings.local.json'))).toBe(false);
  });

  it("leaves the notes Claude keeps for itself out of the commit, and says so", async () => {
    const steps: readonly ModelStep[] = [
      { kind: 'tool', tool: ['Write'], input: { file_path: '{cwd}/CLAUDE.local.md', content: 'Remember: the tests run with npm test.\n' } },
      WRITE_RUN_SAY[0]!,
      { kind: 'text', text: 'Wrote my notes and hello.txt.' },
    ];
    const run = await open({ steps });
    await run.submit('notes');
    const status = await run.desk.waitForStatus('notes', ['completed', 'error', 'cancelled'], 60_000);
    const events = await run.events('notes');
    expect(status, logLines(events).join('\n')).toBe('completed');
    const { commit, worktreePath } = (await run.desk.api('GET', '/tasks/notes')).json;
    const committed = execFileSync('git', ['ls-tree', '-r', '--name-only', commit], { cwd: run.desk.repo, encoding: 'utf8' }).split('\n');
    expect(committed).toContain('hello.txt');
    expect(committed).not.toContain('CLAUDE.local.md');
    expect(existsSync(join(worktreePath, 'CLAUDE.local.md'))).toBe(true);
    expect(logLines(events)).toContainEqual(expect.stringContaining("Left out of the commit: CLAUDE.local.md (Claude Code's local notes, kept out of your repository)."));
  });
});
