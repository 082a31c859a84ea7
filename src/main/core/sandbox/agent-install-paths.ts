// Where an agent's program is installed, so the sandbox can show it wherever it lives (even in the hidden home): the
// command found on PATH, the interpreter its script names, and the scripts and loaders its arguments name.
import { closeSync, existsSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isWithin } from './sandbox-layout';

/**
 * The directory that holds everything a program at `real` needs: the outermost `node_modules` on its path (where
 * an npm install keeps the package and the dependencies hoisted beside it), else the package it is the source of
 * (nearest `package.json`, never the home or above), else its own directory.
 */
export function installRootOf(real: string, home: string, hasPackageJson: (dir: string) => boolean): string {
  const marker = `${sep}node_modules${sep}`;
  const at = real.indexOf(marker);
  if (at >= 0) return real.slice(0, at + marker.length - 1);
  for (let dir = dirname(real); dir !== dirname(dir) && !isWithin(home, dir); dir = dirname(dir)) {
    if (hasPackageJson(dir)) return dir;
  }
  return dirname(real);
}

/** The install roots of an agent started as `command args` with this PATH (real paths, each once). */
export function agentInstallPaths(agent: { command: string; args: readonly string[] }, pathVariable: string, home: string): string[] {
  const roots = new Set<string>();
  const hasPackageJson = (dir: string) => existsSync(join(dir, 'package.json'));
  const add = (real: string | undefined) => { if (real !== undefined) roots.add(installRootOf(real, home, hasPackageJson)); };
  const program = realOf(findOnPath(agent.command, pathVariable));
  add(program);
  // A script (`#!/usr/bin/env node`) needs its interpreter too: the runtime's whole install (`…/bin/node` → `…`).
  const interpreter = program === undefined ? undefined : realOf(findOnPath(interpreterOf(program) ?? '', pathVariable));
  if (interpreter !== undefined) roots.add(dirname(interpreter).endsWith(`${sep}bin`) ? dirname(dirname(interpreter)) : dirname(interpreter));
  for (const arg of agent.args) {
    const path = arg.startsWith('file://') ? safeFileUrl(arg) : arg;
    if (path !== undefined && isAbsolute(path)) add(realOf(path));
  }
  return [...roots];
}

/** Where the agent's command is found on this PATH, as found (a link stays a link), or undefined. */
export function agentProgramOnPath(agent: { command: string }, pathVariable: string): string | undefined {
  return findOnPath(agent.command, pathVariable);
}

function findOnPath(command: string, pathVariable: string): string | undefined {
  if (command === '') return undefined;
  if (command.includes('/')) return isAbsolute(command) ? command : undefined;
  for (const dir of pathVariable.split(delimiter).filter(isAbsolute)) {
    const candidate = join(dir, command);
    if (isFile(candidate)) return candidate;
  }
  return undefined;
}

/** The program a `#!` line runs (`/usr/bin/env node` → `node`), if the file starts with one. */
function interpreterOf(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(256);
    const line = head.subarray(0, readSync(fd, head, 0, 256, 0)).toString('utf8').split('\n')[0] ?? '';
    if (!line.startsWith('#!')) return undefined;
    const words = line.slice(2).trim().split(/\s+/).filter((word) => !word.startsWith('-'));
    return words[0]?.endsWith('/env') ? words[1] : words[0];
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function realOf(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  try {
    return isFile(path) ? realpathSync(path) : undefined;
  } catch {
    return undefined;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function safeFileUrl(url: string): string | undefined {
  try {
    return fileURLToPath(url);
  } catch {
    return undefined;
  }
}
