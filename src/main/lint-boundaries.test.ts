// The lint rules that keep each runtime in its lane: electron only in the Electron host and the preload; the board and
// the contract import nothing of the main process; hosts reach the core only through its front door; the scripted agent stands alone.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();
const importElectron = "import { app } from 'electron';\nexport const name = app.getName();\n";

async function electronErrors(filePath: string, code = importElectron): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax').length;
}

describe('runtime boundaries', () => {
  it.each(['src/main/core/tasks/x.ts', 'src/shared/x.ts', 'src/renderer/src/x.tsx'])('refuses electron in %s', async (file) => {
    expect(await electronErrors(file)).toBeGreaterThan(0);
  });

  it('refuses require("electron") in the core', async () => {
    expect(await electronErrors('src/main/core/x.ts', "const electron = require('electron');\nexport default electron;\n")).toBeGreaterThan(0);
  });

  it.each(['src/main/index.ts', 'src/preload/index.ts'])('allows electron in %s', async (file) => {
    expect(await electronErrors(file)).toBe(0);
  });
});

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the board imports only src/shared and its own files', () => {
  it('refuses the core, the preload and the scripted agent', async () => {
    for (const from of ['../../../main/core/tasks/task-state', '../../../preload/index', '../../../scripted-agent/main']) {
      expect(await restrictedImports('src/renderer/src/board/x.tsx', `import { a } from '${from}';\nexport const b = a;\n`), from).toHaveLength(1);
    }
  });

  it('allows src/shared and its own files', async () => {
    expect(await restrictedImports('src/renderer/src/board/x.tsx', "import { a } from '../../../shared/task';\nimport { c } from '../state/selectors';\nexport const b = [a, c];\n")).toEqual([]);
  });
});

describe('the contract imports only zod and itself', () => {
  it('refuses an npm package other than zod and anything outside src/shared', async () => {
    for (const from of ['react', '../main/core/index', 'node:fs']) {
      expect(await restrictedImports('src/shared/x.ts', `import { a } from '${from}';\nexport const b = a;\n`), from).toHaveLength(1);
    }
  });

  it('allows zod and its own files', async () => {
    expect(await restrictedImports('src/shared/x.ts', "import { z } from 'zod';\nimport { a } from './task';\nexport const b = [z, a];\n")).toEqual([]);
  });

  it('lets the route contract reach the contract beside it, and nothing above', async () => {
    expect(await restrictedImports('src/shared/routes/x.ts', "import { a } from '../task';\nimport { c } from './define';\nexport const b = [a, c];\n")).toEqual([]);
    expect(await restrictedImports('src/shared/routes/x.ts', "import { a } from '../../main/core/index';\nexport const b = a;\n")).toHaveLength(1);
  });
});

describe('hosts reach the core only through its front door', () => {
  const hosts = ['src/main/serve.ts', 'src/main/serve-host.ts', 'src/main/index.ts', 'src/main/shell/x.ts', 'src/main/electron/x.ts', 'bench/x.ts'];
  const coreFrom = (file: string, room: string) => `${file.startsWith('bench/') ? '../src/main/core' : file.split('/').length === 3 ? './core' : '../core'}/${room}`;

  it.each(hosts)('refuses a room of the core in %s', async (file) => {
    expect(await restrictedImports(file, `import { a } from '${coreFrom(file, 'tasks/task-service')}';\nexport const b = a;\n`)).toHaveLength(1);
  });

  it.each(hosts)('allows src/main/core/index.ts in %s', async (file) => {
    expect(await restrictedImports(file, `import { a } from '${coreFrom(file, 'index')}';\nexport const b = a;\n`)).toEqual([]);
  });

  it('lets bench and host tests use the testing door, and not the app', async () => {
    expect(await restrictedImports('bench/x.ts', "import { a } from '../src/main/core/testing';\nexport const b = a;\n")).toEqual([]);
    expect(await restrictedImports('src/main/shell/x.test.ts', "import { a } from '../core/testing';\nexport const b = a;\n")).toEqual([]);
    expect(await restrictedImports('src/main/shell/x.ts', "import { a } from '../core/testing';\nexport const b = a;\n")).toHaveLength(1);
  });

  it('leaves the core\'s own tests free to reach its rooms', async () => {
    expect(await restrictedImports('src/main/core/tasks/x.test.ts', "import { a } from '../git/git-test-fixture';\nexport const b = a;\n")).toEqual([]);
  });
});

describe('the scripted agent imports only src/shared and npm packages', () => {
  it('refuses the core and the board', async () => {
    for (const from of ['../main/core/index', '../renderer/src/app']) {
      expect(await restrictedImports('src/scripted-agent/x.ts', `import { a } from '${from}';\nexport const b = a;\n`), from).toHaveLength(1);
    }
  });

  it('allows src/shared, its own files and npm packages', async () => {
    expect(await restrictedImports('src/scripted-agent/x.ts', "import { a } from '../shared/task';\nimport { c } from './script';\nimport { d } from '@agentclientprotocol/sdk';\nexport const b = [a, c, d];\n")).toEqual([]);
  });
});
