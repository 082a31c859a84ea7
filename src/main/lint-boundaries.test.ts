// The lint rule that keeps each runtime in its lane: electron may be imported only by the Electron host and the preload.
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
