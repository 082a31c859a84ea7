// How an agent's process ended, in words for the task's error: killed or its exit code, with its last log lines.
import type { AgentExit } from '../agents/agent-process';

export function describeExit(exit: AgentExit, recentLog: string): string {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const tail = recentLog.split('\n').slice(-5).join('\n').trim();
  return `The agent ${how}${tail ? `: ${tail}` : ''}`;
}
