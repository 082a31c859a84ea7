// How the desktop app runs the scripted agent, a Node program shipped inside the app. Pure.
//
// The core spawns agents as separate programs over stdio, so the agent needs a Node runtime of its own.
// Electron's binary can act as one (ELECTRON_RUN_AS_NODE=1), but the packaged app turns that off with the
// RunAsNode fuse: left on, anyone could use the signed app as a general Node interpreter that inherits its
// OS permissions. utilityProcess cannot serve either: it offers no stdin and the core must stay Electron-free.
// So: the system's `node` when there is one (npm start always has it; every vendor agent from npm needs it too);
// Electron-as-Node only in an unpackaged build, where the fuse is not flipped; otherwise the agent is listed as
// unavailable with the reason, and vendor agents, which are separate programs, are unaffected.

export interface ScriptedAgentLaunchInput {
  packaged: boolean;
  /** process.execPath: the Electron binary. */
  electronPath: string;
  /** `node` as found on PATH, if anywhere. */
  systemNode: string | undefined;
}

export interface ScriptedAgentLaunch {
  command: string;
  env: Record<string, string>;
  /** Shown when the agent cannot run. */
  note?: string;
}

export function scriptedAgentLaunch(input: ScriptedAgentLaunchInput): ScriptedAgentLaunch {
  if (input.systemNode !== undefined) return { command: input.systemNode, env: {} };
  if (!input.packaged) return { command: input.electronPath, env: { ELECTRON_RUN_AS_NODE: '1' } };
  // A bare name the registry will not find: it reports the agent unavailable, with "node was not found on PATH".
  return { command: 'node', env: {}, note: 'The scripted agent needs Node.js (20.19+) on PATH in the installed app.' };
}
