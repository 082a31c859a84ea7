// Runs the Agent Protocol's own compliance collection (../shared/conformance, unedited) with newman against a
// headless desk on a temp repository, temp data dir, known token and free port; exits non-zero on any failure.
//   node scripts/ap-compliance.mjs                 the built host (out/main/serve.js; run `npm run build` first)
//   node scripts/ap-compliance.mjs --from-source   src/main/serve.ts through tsx
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import newman from 'newman';

const deskRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const collectionPath = resolve(deskRoot, '..', 'shared', 'conformance', 'agent-protocol-v1.postman.json');
const fromSource = process.argv.includes('--from-source');
const serveEntry = fromSource ? join(deskRoot, 'src', 'main', 'serve.ts') : join(deskRoot, 'out', 'main', 'serve.js');

function fail(message) {
  process.stderr.write(`ap-compliance: ${message}\n`);
  process.exit(2);
}

if (!existsSync(collectionPath)) fail(`the compliance collection is missing: expected ${collectionPath} (the shared/ folder beside this clone).`);
if (!existsSync(serveEntry)) fail(`${serveEntry} is missing: run \`npm run build\` first, or pass --from-source.`);

const root = mkdtempSync(join(tmpdir(), 'ap-compliance-'));
let host;

async function main() {
  const repo = join(root, 'repo');
  const workingDir = join(root, 'newman');
  mkdirSync(repo);
  mkdirSync(workingDir);
  // The desk needs a repository with a commit on its base branch; the person's git config must not sign or hook it.
  const git = (...args) => execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'user.name=AP compliance', '-c', 'user.email=ap@desk.invalid', ...args], { cwd: repo, stdio: 'pipe' });
  git('init', '--quiet', '--initial-branch=main');
  writeFileSync(join(repo, 'README.md'), '# Agent Protocol compliance run\n');
  git('add', 'README.md');
  git('commit', '--quiet', '-m', 'Initial commit');
  // The collection's upload item sends this file from newman's working directory.
  writeFileSync(join(workingDir, 'test_output.txt'), 'Washington\n');

  const token = randomBytes(24).toString('hex');
  host = await startHost(['--repo', repo, '--data-dir', join(root, 'data'), '--token', token, '--port', '0', '--host', '127.0.0.1']);
  process.stdout.write(`Desk listening on ${host.url} (${fromSource ? 'from source' : 'built'})\n`);

  const collection = JSON.parse(readFileSync(collectionPath, 'utf8'));
  // The collection sends no credentials; every request inherits this bearer auth instead of editing the file.
  collection.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}', type: 'string' }] };
  const summary = await new Promise((resolveRun, rejectRun) => {
    newman.run({
      collection,
      envVar: [{ key: 'url', value: host.url }, { key: 'token', value: token }],
      workingDir,
      reporters: ['cli'],
      // The collection logs whole request objects from its scripts; the results are what matter here.
      reporter: { cli: { noConsole: true } },
      timeoutRequest: 30_000,
    }, (error, result) => (error ? rejectRun(error) : resolveRun(result)));
  });

  const { failures, stats } = summary.run;
  const line = (name, counts) => `${name}: ${counts.total} total, ${counts.failed} failed`;
  process.stdout.write(`\n${line('requests', stats.requests)}; ${line('assertions', stats.assertions)}; ${line('test scripts', stats.testScripts)}\n`);
  if (failures.length > 0) {
    for (const failure of failures) process.stderr.write(`FAILED ${failure.source?.name ?? '?'}: ${failure.error?.message ?? failure.error}\n`);
    return 1;
  }
  process.stdout.write('Agent Protocol compliance: passed\n');
  return 0;
}

/** Starts the headless host and resolves once it prints where it listens. */
function startHost(args) {
  const argv = fromSource ? ['--import', 'tsx', serveEntry, ...args] : [serveEntry, ...args];
  const child = spawn(process.execPath, argv, { cwd: deskRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolveHost, rejectHost) => {
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      const match = /Listening on (http:\/\/\S+)/.exec(output);
      if (match) resolveHost({ child, url: match[1] });
    });
    child.stderr.on('data', (chunk) => { output += chunk.toString(); });
    child.once('exit', (code) => rejectHost(new Error(`the desk exited with ${code} before listening:\n${output}`)));
  });
}

/** Stops the desk (it stops its agents and closes its database), killing it if it takes too long. */
async function stopHost() {
  const child = host?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function cleanUp() {
  await stopHost();
  rmSync(root, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => { void cleanUp().finally(() => process.exit(130)); });
}

let code = 1;
try {
  code = await main();
} catch (error) {
  process.stderr.write(`ap-compliance: ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await cleanUp();
}
process.exit(code);
