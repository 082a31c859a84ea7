// The lint rule that keeps src/main/shell loadable in plain Node: Electron's types yes, its module no.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function electronErrors(code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath: 'src/main/shell/x.ts' });
  return (result?.messages ?? []).filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports' || m.ruleId === 'no-restricted-syntax').length;
}

describe('the shell boundary', () => {
  it('refuses importing electron in src/main/shell', async () => {
    expect(await electronErrors("import { app } from 'electron';\nexport const name = app.getName();\n")).toBeGreaterThan(0);
  });

  it('refuses requiring electron there', async () => {
    expect(await electronErrors("const electron = require('electron');\nexport default electron;\n")).toBeGreaterThan(0);
  });

  it('allows Electron\'s types there', async () => {
    expect(await electronErrors("import type { WebPreferences } from 'electron';\nexport const web: WebPreferences = {};\n")).toBe(0);
  });
});
