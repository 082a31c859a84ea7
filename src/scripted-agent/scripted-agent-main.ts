// Entry of the scripted agent process: `--dialect acp|kandev` (default acp). The protocol runs on stdin/stdout;
// anything else goes to stderr, because a stray byte on stdout would corrupt the client's stream.
import { Readable, Writable } from 'node:stream';
import { startAcpScriptedAgent } from './acp-scripted-agent';
import { startKandevScriptedAgent } from './kandev-scripted-agent';
import { stdioTransport } from './stdio-transport';

type Dialect = 'acp' | 'kandev';

/** Reads `--dialect X` or `--dialect=X`; undefined when the arguments are not understood. */
function readDialect(args: readonly string[]): Dialect | undefined {
  let dialect: string = 'acp';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--dialect') dialect = args[++i] ?? '';
    else if (arg.startsWith('--dialect=')) dialect = arg.slice('--dialect='.length);
    else return undefined;
  }
  return dialect === 'acp' || dialect === 'kandev' ? dialect : undefined;
}

function main(args: readonly string[]): void {
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  const dialect = readDialect(args);
  if (!dialect) {
    log('usage: scripted-agent [--dialect acp|kandev]');
    process.exit(2);
  }
  const exit = (code: number): never => process.exit(code);
  // The client closing its end while we write is how conversations end, not a crash.
  process.stdout.on('error', (error) => {
    log(`scripted-agent: stdout closed: ${error.message}`);
    process.exit(0);
  });

  // The standard dialect reads stdio as Node streams: web streams would cost every start ~2 ms of CPU.
  const agent =
    dialect === 'kandev'
      ? startKandevScriptedAgent({ ...webStdio(), defaultCwd: process.cwd(), exit, log })
      : startAcpScriptedAgent({ transport: stdioTransport(process.stdin, process.stdout), exit });
  void agent.closed.then(() => process.exit(0));
}

function webStdio(): { input: ReadableStream<Uint8Array>; output: WritableStream<Uint8Array> } {
  // Node's web-stream types and the DOM lib's are the same objects at run time but distinct to TypeScript.
  return {
    input: Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>,
    output: Writable.toWeb(process.stdout) as unknown as WritableStream<Uint8Array>,
  };
}

main(process.argv.slice(2));
