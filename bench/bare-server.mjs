// The baseline the benchmarks compare the desk with: the least a server can honestly do for the same
// routes. A bare node:http server over SQLite (WAL, synchronous = NORMAL like the desk) that checks the
// token, INSERTs a submitted task and lists every task as the desk's `GET /` shapes them.
// Plain JavaScript, so Node starts it without a loader: node bench/bare-server.mjs <data dir> <token> [port]
// Prints `Listening on http://127.0.0.1:<port>` when ready, like the desk.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const [dataDir, token, port = '0'] = process.argv.slice(2);
if (!dataDir || !token) {
  process.stderr.write('usage: node bench/bare-server.mjs <data dir> <token> [port]\n');
  process.exit(2);
}
mkdirSync(dataDir, { recursive: true });
const db = new Database(join(dataDir, 'baseline.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('CREATE TABLE IF NOT EXISTS tasks (id TEXT PRIMARY KEY, prompt TEXT NOT NULL, dependencies TEXT NOT NULL, submitted_at TEXT NOT NULL)');
const insert = db.prepare('INSERT OR REPLACE INTO tasks (id, prompt, dependencies, submitted_at) VALUES (?, ?, ?, ?)');
const all = db.prepare('SELECT id, prompt, dependencies, submitted_at FROM tasks ORDER BY rowid');

/** The same fields, in the same order, as a queued task in the desk's `GET /`. */
function summaryOf(row) {
  return {
    id: row.id, submittedAt: row.submitted_at, status: 'queued', title: row.prompt.split('\n', 1)[0].slice(0, 120),
    agent: 'scripted', dependencies: JSON.parse(row.dependencies), review: 'pending', updatedAt: row.submitted_at,
  };
}

function answer(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (req.headers.authorization !== `Bearer ${token}`) return answer(res, 401, { error: 'unauthorized', message: 'bad token' });
    try {
      if (req.method === 'GET' && req.url === '/') return answer(res, 200, { serverName: 'baseline', tasks: all.all().map(summaryOf) });
      if (req.method === 'POST' && req.url === '/') {
        const task = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const submittedAt = new Date().toISOString();
        insert.run(task.id, task.prompt, JSON.stringify(task.dependencies ?? []), submittedAt);
        return answer(res, 202, { id: task.id, status: 'queued', submittedAt });
      }
      return answer(res, 404, { error: 'not_found', message: 'no such route' });
    } catch (error) {
      return answer(res, 400, { error: 'bad_request', message: error instanceof Error ? error.message : String(error) });
    }
  });
});
server.listen(Number(port), '127.0.0.1', () => {
  process.stdout.write(`Listening on http://127.0.0.1:${server.address().port}\n`);
});
const stop = () => server.close(() => { db.close(); process.exit(0); });
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
