// What the desktop app remembers between starts, in DATA_DIR/desktop.json: the port it listened on, the
// repository it works on and where its window was. A damaged file is set aside and the defaults used.
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { SavedWindow } from './window-state';

export const DesktopSettings = z.object({
  port: z.number().int().min(1).max(65_535).optional(),
  repoPath: z.string().min(1).optional(),
  window: SavedWindow.optional(),
});
export type DesktopSettings = z.infer<typeof DesktopSettings>;

export const SETTINGS_FILE = 'desktop.json';

/** Settings as stored, or `{}` when there are none yet or they cannot be read (then `problem` says why). */
export function parseDesktopSettings(text: string | undefined): { settings: DesktopSettings; problem?: string } {
  if (text === undefined) return { settings: {} };
  try {
    const parsed = DesktopSettings.safeParse(JSON.parse(text));
    if (parsed.success) return { settings: parsed.data };
    return { settings: {}, problem: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`).join('; ') };
  } catch (error) {
    return { settings: {}, problem: error instanceof Error ? error.message : String(error) };
  }
}

export interface SettingsStore {
  read(): DesktopSettings;
  /** Merges and writes at once (atomically: a crash leaves the old file or the new one, never half). */
  update(change: Partial<DesktopSettings>): DesktopSettings;
}

export function createSettingsStore(dataDir: string, log: (message: string) => void): SettingsStore {
  const path = join(dataDir, SETTINGS_FILE);
  let current: DesktopSettings | undefined;
  const load = (): DesktopSettings => {
    let text: string | undefined;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const { settings, problem } = parseDesktopSettings(text);
    if (problem !== undefined) log(`Ignoring ${path} (${problem}); starting from defaults.`);
    return settings;
  };
  return {
    read: () => (current ??= load()),
    update(change) {
      current = { ...(current ?? load()), ...change };
      const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
      writeFileSync(temp, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o600 });
      renameSync(temp, path);
      return current;
    },
  };
}
