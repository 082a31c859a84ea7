// Test support: the terminals a test client hands out for terminal/create, backed by real child processes.
import { spawn, type ChildProcess } from 'node:child_process';

interface TestTerminal {
  child: ChildProcess;
  output: string;
  exit: Promise<{ exitCode: number | null; signal: string | null }>;
}

export class TestTerminals {
  private readonly terminals = new Map<string, TestTerminal>();
  private nextId = 1;

  create(command: string, args: string[], cwd: string): string {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const terminal: TestTerminal = {
      child,
      output: '',
      exit: new Promise((resolve) => child.once('close', (exitCode, signal) => resolve({ exitCode, signal }))),
    };
    const collect = (chunk: Buffer): void => {
      terminal.output += chunk.toString();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const id = `term-${this.nextId++}`;
    this.terminals.set(id, terminal);
    return id;
  }

  waitForExit(id: string): Promise<{ exitCode: number | null; signal: string | null }> {
    return this.get(id).exit;
  }

  async output(id: string): Promise<{ output: string; truncated: boolean }> {
    return { output: this.get(id).output, truncated: false };
  }

  release(id: string): void {
    this.terminals.get(id)?.child.kill();
    this.terminals.delete(id);
  }

  releaseAll(): void {
    for (const id of [...this.terminals.keys()]) this.release(id);
  }

  private get(id: string): TestTerminal {
    const terminal = this.terminals.get(id);
    if (!terminal) throw new Error(`unknown terminal ${id}`);
    return terminal;
  }
}
