// Ending agents a crashed desk left behind, without ever signalling a process that is not ours.
import { basename } from 'node:path';
import type { AgentRegistry } from '../agents/agent-registry';
import { commandLineOf, endProcessTree, processExists, processGroupAlive } from '../agents/process-tree';
import type { TaskRecord } from '../store/tasks-repo';

/**
 * Ends the process tree a crashed desk left behind for this task. A pid is not reused while a group
 * of that id exists, so a group whose leader is gone is surely ours; a live leader is checked by its
 * command line (where the platform tells it) because the pid may have been recycled.
 */
export async function reapOrphan(task: TaskRecord, agents: Pick<AgentRegistry, 'get'>): Promise<void> {
  const pid = task.agentPid as number;
  if (!processGroupAlive(pid)) return;
  if (processExists(pid)) {
    const commandLine = commandLineOf(pid);
    const spec = agents.get(task.agent);
    const ours = commandLine !== undefined && spec !== undefined
      // The registry may have resolved the command to an absolute path since the agent started, a script
      // agent (`#!/usr/bin/env node`) shows the interpreter first, and a sandboxed one shows bwrap and its options.
      && commandLine.map((part) => basename(part)).includes(basename(spec.command))
      && spec.args.every((arg) => commandLine.includes(arg));
    if (!ours) return;
  }
  await endProcessTree(pid);
}
