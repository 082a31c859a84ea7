// The shell in front of the agent's launcher, run for real: the checkout with exactly its own environment, its output
// kept off the agent's stdout, the index copied, then the launcher with its arguments as given; a failure ends it
// before the launcher runs, in a way no output can fake.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHECKOUT_FAILED_STATUS, checkoutFirst, type CheckoutStep } from './checkout-first';
import { findOnPath } from '../host/find-on-path';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'desk-checkout-first-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const envProgram = findOnPath('env', process.env.PATH ?? '') as string;
/** A stand-in for git: a shell running `script` (the step's arguments are `-c script`). */
const step = (script: string, env: Record<string, string>, copyIndex?: CheckoutStep['copyIndex']): CheckoutStep => ({
  envProgram, gitProgram: '/bin/sh', invocation: { args: ['-c', script], env }, ...(copyIndex && { copyIndex }),
});
/** The launcher: prints its arguments as JSON, so the test sees exactly what it was given. */
const printArgs = [process.execPath, '-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))'];
const run = (launch: { command: string; args: string[] }) => spawnSync(launch.command, launch.args, { cwd: dir, encoding: 'utf8', env: { ...process.env, AGENT_ONLY: 'agent' } });

describe.skipIf(process.platform === 'win32')('checkoutFirst', () => {
  it('runs the checkout with its own environment alone, drops its stdout, copies the index, then becomes the launcher', () => {
    writeFileSync(join(dir, 'index'), 'DIRC fresh index');
    const awkward = ['a b', "it's", '$HOME', '"quoted"', 'line\nbreak', '-n', ''];
    const launch = checkoutFirst(
      step('echo "$GIT_DIR|${AGENT_ONLY-unset}" > seen; echo "HEAD is now at abc"', { GIT_DIR: '/repo/.git', PATH: process.env.PATH ?? '' }, { from: join(dir, 'index'), to: join(dir, 'agent-index') }),
      printArgs[0] as string, [...printArgs.slice(1), ...awkward],
    );
    const result = run(launch);
    expect(result.status).toBe(0);
    expect(readFileSync(join(dir, 'seen'), 'utf8')).toBe('/repo/.git|unset\n');
    expect(JSON.parse(result.stdout)).toEqual(awkward);
    expect(readFileSync(join(dir, 'agent-index'), 'utf8')).toBe('DIRC fresh index');
    expect(launch.failure(result.stderr)).toBeUndefined();
  });

  it('ends with its own status and git\'s reason when the checkout fails, and never starts the launcher', () => {
    const launch = checkoutFirst(step('echo "fatal: unable to read tree" >&2; exit 128', {}), '/bin/sh', ['-c', 'touch launched']);
    const result = run(launch);
    expect(result.status).toBe(CHECKOUT_FAILED_STATUS);
    expect(existsSync(join(dir, 'launched'))).toBe(false);
    expect(launch.failure(result.stderr)).toEqual({ step: 'checkout', exitCode: 128, stderr: 'fatal: unable to read tree' });
  });

  it('ends the same way when the index cannot be copied', () => {
    const launch = checkoutFirst(step('true', {}, { from: join(dir, 'no-index'), to: join(dir, 'agent-index') }), '/bin/sh', ['-c', 'touch launched']);
    const result = run(launch);
    expect(result.status).toBe(CHECKOUT_FAILED_STATUS);
    expect(existsSync(join(dir, 'launched'))).toBe(false);
    expect(launch.failure(result.stderr)).toMatchObject({ step: 'copy' });
  });

  it('takes no line for its note but its own: another launch\'s mark, or text around it, is not a failure', () => {
    const first = checkoutFirst(step('exit 3', {}), '/bin/true', []);
    const second = checkoutFirst(step('exit 3', {}), '/bin/true', []);
    const noted = run(first).stderr;
    expect(second.failure(noted)).toBeUndefined();
    expect(first.failure(`agent says ${noted}`)).toBeUndefined();
    expect(first.failure(`${noted.trim()} and more`)).toBeUndefined();
    expect(first.failure(noted)).toEqual({ step: 'checkout', exitCode: 3, stderr: '' });
  });
});
