// The code cache of the headless host's bundle: where it lives, when a start makes new code, and that a missing,
// broken or unwritable cache never changes what the bundle does. Real bundles in temp dirs, compiled by V8.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOST_BUNDLE_WRAPPER } from './host-bundle';
import { codeCacheDir, currentRuntime, loadWithCodeCache } from './code-cache';
import { codeCacheFileName, isSettled, stampAliasName, staleCacheFiles } from './code-cache-names';

describe('codeCacheDir', () => {
  it('is the user\'s own cache folder on each platform', () => {
    expect(codeCacheDir('linux', {}, '/home/ada')).toBe('/home/ada/.cache/assignment-desk/code-cache');
    expect(codeCacheDir('linux', { XDG_CACHE_HOME: '/var/cache/ada' }, '/home/ada')).toBe('/var/cache/ada/assignment-desk/code-cache');
    // XDG says a relative path is to be ignored.
    expect(codeCacheDir('linux', { XDG_CACHE_HOME: 'cache' }, '/home/ada')).toBe('/home/ada/.cache/assignment-desk/code-cache');
    expect(codeCacheDir('darwin', {}, '/Users/ada')).toBe('/Users/ada/Library/Caches/Assignment Desk/code-cache');
    expect(codeCacheDir('win32', { LOCALAPPDATA: 'C:/Users/ada/AppData/Local' }, 'C:/Users/ada')).toBe(join('C:/Users/ada/AppData/Local', 'Assignment Desk', 'Cache', 'code-cache'));
  });

  it('is off with Node\'s own switch for its compile cache', () => {
    expect(codeCacheDir('linux', { NODE_DISABLE_COMPILE_CACHE: '1' }, '/home/ada')).toBeUndefined();
  });
});

describe('codeCacheFileName', () => {
  const digest = 'a'.repeat(64);
  const runtime = { node: 'v20.20.2', v8: '11.3', arch: 'x64', flags: '' };
  const name = codeCacheFileName('/app/out/main/serve-host.script.js', digest, runtime);

  it('stays the same for the same content under the same Node, wherever the bundle is', () => {
    expect(codeCacheFileName('/app/out/main/serve-host.script.js', digest, { ...runtime })).toBe(name);
    expect(codeCacheFileName('/other/out/main/serve-host.script.js', digest, runtime)).toBe(name);
    expect(name).toMatch(/^serve-host\.script\.js-[0-9a-f]{24}\.v8$/);
  });

  it('changes with other content, another Node, V8, machine or flags', () => {
    const others = [
      codeCacheFileName('/app/out/main/serve-host.script.js', 'b'.repeat(64), runtime),
      codeCacheFileName('/app/out/main/serve-host.script.js', digest, { ...runtime, node: 'v22.23.3' }),
      codeCacheFileName('/app/out/main/serve-host.script.js', digest, { ...runtime, v8: '12.4' }),
      codeCacheFileName('/app/out/main/serve-host.script.js', digest, { ...runtime, arch: 'arm64' }),
      codeCacheFileName('/app/out/main/serve-host.script.js', digest, { ...runtime, flags: '--max-old-space-size=512' }),
    ];
    expect(new Set([name, ...others]).size).toBe(others.length + 1);
  });
});

describe('stampAliasName and isSettled', () => {
  const runtime = { node: 'v20.20.2', v8: '11.3', arch: 'x64', flags: '' };
  const stamp = { dev: 2049n, ino: 123n, size: 1_800_000n, mtimeNs: 1_700_000_000_000_000_000n, ctimeNs: 1_700_000_000_000_000_000n };
  const name = stampAliasName('/app/out/main/serve-host.script.js', stamp, runtime);

  it('is another name than any content\'s, and changes with every field of the stamp and the runtime', () => {
    expect(name).toMatch(/^serve-host\.script\.js-stamp-[0-9a-f]{24}\.v8$/);
    const others = [
      ...(['dev', 'ino', 'size', 'mtimeNs', 'ctimeNs'] as const).map((field) => stampAliasName('/app/out/main/serve-host.script.js', { ...stamp, [field]: stamp[field] + 1n }, runtime)),
      stampAliasName('/app/out/main/serve-host.script.js', stamp, { ...runtime, flags: '--max-old-space-size=512' }),
    ];
    expect(new Set([name, ...others]).size).toBe(others.length + 1);
  });

  it('takes a bundle as settled only once it has not changed for two seconds', () => {
    const changedAtMs = 1_700_000_000_000;
    expect(isSettled(stamp, changedAtMs + 1999)).toBe(false);
    expect(isSettled(stamp, changedAtMs + 2000)).toBe(true);
    // A change time ahead of this clock (another machine's, over a network file system) never counts as settled.
    expect(isSettled(stamp, changedAtMs - 60_000)).toBe(false);
  });
});

describe('staleCacheFiles', () => {
  it('keeps the three newest of each kind of the bundle\'s names', () => {
    const files = [
      { name: 'serve-host.cjs-a.v8', mtimeMs: 1 }, { name: 'serve-host.cjs-b.v8', mtimeMs: 5 }, { name: 'serve-host.cjs-c.v8', mtimeMs: 3 },
      { name: 'serve-host.cjs-stamp-a.v8', mtimeMs: 1 }, { name: 'serve-host.cjs-stamp-b.v8', mtimeMs: 5 }, { name: 'serve-host.cjs-stamp-c.v8', mtimeMs: 3 },
      { name: 'serve-host.cjs-stamp-d.v8', mtimeMs: 4 },
    ];
    expect(staleCacheFiles('/app/serve-host.cjs', files)).toEqual(['serve-host.cjs-stamp-a.v8']);
  });

  it('keeps the three newest of the bundle and leaves other files alone', () => {
    const files = [
      { name: 'serve-host.cjs-a.v8', mtimeMs: 1 }, { name: 'serve-host.cjs-b.v8', mtimeMs: 5 }, { name: 'serve-host.cjs-c.v8', mtimeMs: 3 },
      { name: 'serve-host.cjs-d.v8', mtimeMs: 4 }, { name: 'serve-host.cjs-e.v8', mtimeMs: 2 },
      { name: 'other.cjs-x.v8', mtimeMs: 0 }, { name: 'serve-host.cjs-f.v8.123.partial', mtimeMs: 0 }, { name: 'notes.txt', mtimeMs: 0 },
    ];
    expect(staleCacheFiles('/app/serve-host.cjs', files).sort()).toEqual(['serve-host.cjs-a.v8', 'serve-host.cjs-e.v8']);
    expect(staleCacheFiles('/app/serve-host.cjs', files.slice(0, 3))).toEqual([]);
  });
});

describe('loadWithCodeCache', () => {
  let dir: string;
  let bundle: string;
  let cacheDir: string;
  const cacheFiles = () => readdirSync(cacheDir).filter((name) => name.endsWith('.v8'));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'desk-code-cache-'));
    mkdirSync(join(dir, 'app'));
    bundle = join(dir, 'app', 'host.script.js');
    cacheDir = join(dir, 'cache', 'code-cache');
    // `require` from the bundle's folder, its own file names, a module required later: what the host's bundle uses.
    writeFileSync(join(dir, 'app', 'helper.cjs'), 'module.exports = { twice: (n) => 2 * n };');
    writeFileSync(bundle, wrapped([
      "const { twice } = require('./helper.cjs');",
      'function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }',
      'exports.answer = twice(fib(20));',
      'exports.where = { file: __filename, dir: __dirname };',
      "exports.later = () => require('node:path').basename(__filename);",
      'exports.line = () => new Error().stack.split("\\n")[1];',
      'exports.strict = (function () { return this === undefined; })();',
    ]));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  /** A module's lines, wrapped as the build writes the host's bundle: its code starts on the file's second line. */
  const wrapped = (lines: string[]) => `${HOST_BUNDLE_WRAPPER.head}\n${lines.join('\n')}${HOST_BUNDLE_WRAPPER.tail}`;

  interface Fixture { answer: number; where: { file: string; dir: string }; later(): string; line(): string; strict: boolean }
  const expectWorking = (exports: Fixture) => {
    expect(exports.answer).toBe(13530);
    expect(exports.where).toEqual({ file: bundle, dir: join(dir, 'app') });
    expect(exports.later()).toBe('host.script.js');
    // Stack traces name the lines of the file as it is on disk.
    expect(exports.line()).toContain(`${bundle}:7:`);
    expect(exports.strict).toBe(true);
  };

  /**
   * A start in a fresh process: V8 also keeps compiled code in memory for a source it has seen, so only another
   * process shows whether the code on disk was used.
   */
  function startInChild(clockAheadMs = 0): { cache: string; answer: number; where: Fixture['where']; later: string; line: string } {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `
      const { loadWithCodeCache } = await import(${JSON.stringify(join(import.meta.dirname, 'code-cache.ts'))});
      const loaded = loadWithCodeCache(process.argv[1], process.argv[2], { now: () => Date.now() + Number(process.argv[3]) });
      loaded.keep();
      const { answer, where, later, line } = loaded.exports;
      process.stdout.write(JSON.stringify({ cache: loaded.cache, answer, where, later: later(), line: line() }));
    `, bundle, cacheDir, String(clockAheadMs)], { encoding: 'utf8', cwd: join(import.meta.dirname, '../..') });
    expect(run.status, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as ReturnType<typeof startInChild>;
  }
  const expectWorkingChild = (start: ReturnType<typeof startInChild>) => {
    expect(start).toMatchObject({ answer: 13530, where: { file: bundle, dir: join(dir, 'app') }, later: 'host.script.js' });
    expect(start.line).toContain(`${bundle}:7:`);
  };

  it('makes code on the first start and uses it on the next', () => {
    const first = startInChild();
    expect(first.cache).toBe('made');
    expectWorkingChild(first);
    const [file] = cacheFiles();
    expect(cacheFiles()).toHaveLength(1);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(cacheDir, file as string)).mode & 0o777).toBe(0o600);
    const written = statSync(join(cacheDir, file as string));

    const second = startInChild();
    expect(second.cache).toBe('used');
    expectWorkingChild(second);
    expect(cacheFiles()).toEqual([file]);
    expect(statSync(join(cacheDir, file as string))).toMatchObject({ ino: written.ino, mtimeMs: written.mtimeMs });
  });

  it('replaces a broken cache file and runs the bundle as usual', () => {
    expect(startInChild().cache).toBe('made');
    const [file] = cacheFiles() as [string];
    for (const broken of [Buffer.from('not code at all'), readFileSync(join(cacheDir, file)).subarray(0, 200)]) {
      writeFileSync(join(cacheDir, file), broken);
      const start = startInChild();
      expect(start.cache).toBe('remade');
      expectWorkingChild(start);
      expect(startInChild().cache).toBe('used');
    }
  });

  it('runs the bundle in this process too, with its own files and modules required later', () => {
    const loaded = loadWithCodeCache<Fixture>(bundle, cacheDir);
    loaded.keep();
    expectWorking(loaded.exports);
  });

  it('keeps the code compiled after the top level, up to the moment it is kept, and nothing before then', () => {
    const big = Array.from({ length: 400 }, (_, i) => `  total += ${i} * n;`).join('\n');
    writeFileSync(bundle, wrapped([`exports.later = (n) => { let total = 0;\n${big}\n  return total; };`]));
    const keptAtOnce = loadWithCodeCache<{ later(n: number): number }>(bundle, cacheDir);
    keptAtOnce.keep();
    const [file] = cacheFiles() as [string];
    const sizeAtOnce = statSync(join(cacheDir, file)).size;

    rmSync(cacheDir, { recursive: true });
    const loaded = loadWithCodeCache<{ later(n: number): number }>(bundle, cacheDir);
    expect(existsSync(cacheDir)).toBe(false); // nothing is written before `keep`
    expect(loaded.exports.later(2)).toBe(159600);
    loaded.keep();
    loaded.keep();
    expect(statSync(join(cacheDir, file)).size).toBeGreaterThan(sizeAtOnce + 1000);
  });

  it('uses the code kept for a rebuild that wrote the same bundle again', () => {
    expect(startInChild().cache).toBe('made');
    const content = readFileSync(bundle);
    rmSync(bundle);
    writeFileSync(bundle, content);
    expect(startInChild().cache).toBe('used');
  });

  it('never runs code kept for an earlier build of the bundle', () => {
    loadWithCodeCache(bundle, cacheDir).keep();
    // The same length, so V8's own check (the source's length) would take the old code.
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace('twice(fib(20))', 'twice(fib(19))'));
    const rebuilt = loadWithCodeCache<Fixture>(bundle, cacheDir);
    expect(rebuilt.cache).toBe('made');
    expect(rebuilt.exports.answer).toBe(8362);
    rebuilt.keep();
    expect(cacheFiles()).toHaveLength(2);
  });

  describe('under the bundle\'s stamp', () => {
    const later = () => Date.now() + 10_000;
    const aliases = () => cacheFiles().filter((name) => name.includes('-stamp-'));

    it('gives the kept code a second name by the settled bundle\'s stamp, which the next start finds without the content\'s', () => {
      expect(startInChild(10_000).cache).toBe('made');
      const [alias] = aliases() as [string];
      const [byContent] = cacheFiles().filter((name) => name !== alias) as [string];
      expect(statSync(join(cacheDir, alias)).ino).toBe(statSync(join(cacheDir, byContent)).ino);
      rmSync(join(cacheDir, byContent));
      const start = startInChild();
      expect(start.cache).toBe('used');
      expectWorkingChild(start);
    });

    it('names code found by content by the stamp too, once the bundle has settled', () => {
      loadWithCodeCache(bundle, cacheDir).keep();
      expect(aliases()).toEqual([]);
      const found = loadWithCodeCache<Fixture>(bundle, cacheDir, { now: later });
      expect(found.cache).toBe('used');
      found.keep();
      expect(aliases()).toHaveLength(1);
    });

    it('gives no second name to a bundle written just now, whose stamp a change in the same clock tick could keep', () => {
      loadWithCodeCache(bundle, cacheDir).keep();
      expect(cacheFiles()).toHaveLength(1);
      expect(aliases()).toEqual([]);
    });

    it('neither makes nor reads a stamp\'s name on Windows, where a program may set a file\'s change time', () => {
      loadWithCodeCache(bundle, cacheDir, { now: later }).keep();
      const [alias] = aliases() as [string];
      // Only a broken file under the stamp's name is left: read, it would make the start 'remade', not 'made'.
      rmSync(cacheDir, { recursive: true });
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(join(cacheDir, alias), Buffer.from('not code at all'));
      const windows = loadWithCodeCache<Fixture>(bundle, cacheDir, { now: later, platform: 'win32' });
      expect(windows.cache).toBe('made');
      expectWorking(windows.exports);
      windows.keep();
      expect(aliases()).toEqual([alias]);
      expect(readFileSync(join(cacheDir, alias)).toString()).toBe('not code at all');
      expect(loadWithCodeCache(bundle, cacheDir, { platform: 'win32' }).cache).toBe('used');
    });

    it('never runs code kept under the stamp of a bundle since changed in place, with its size and times put back', () => {
      // Whole seconds, which `utimes` can put back exactly.
      const dates = new Date(1_700_000_000_000);
      utimesSync(bundle, dates, dates);
      loadWithCodeCache(bundle, cacheDir, { now: later }).keep();
      expect(aliases()).toHaveLength(1);
      const before = statSync(bundle, { bigint: true });
      const changed = readFileSync(bundle, 'utf8').replace('twice(fib(20))', 'twice(fib(19))');
      // The same file, length and modification time: only the change time differs, which the kernel sets from its
      // clock. A real bundle is named by its stamp two seconds after its last change at the earliest; here the
      // change is written again until the file system's clock (coarse on some) has moved on from the stamp's.
      do {
        writeFileSync(bundle, changed);
        utimesSync(bundle, dates, dates);
      } while (statSync(bundle, { bigint: true }).ctimeNs === before.ctimeNs);
      expect(statSync(bundle, { bigint: true })).toMatchObject({ ino: before.ino, size: before.size, mtimeNs: before.mtimeNs });
      const rebuilt = loadWithCodeCache<Fixture>(bundle, cacheDir, { now: later });
      expect(rebuilt.cache).toBe('made');
      expect(rebuilt.exports.answer).toBe(8362);
    });
  });

  it('keeps at most three builds\' code', () => {
    for (let build = 0; build < 5; build += 1) {
      writeFileSync(bundle, wrapped([`exports.build = ${build};`]));
      loadWithCodeCache(bundle, cacheDir).keep();
    }
    expect(cacheFiles()).toHaveLength(3);
    expect(loadWithCodeCache<{ build: number }>(bundle, cacheDir).exports.build).toBe(4);
  });

  it('writes nothing when off, and starts as usual when the cache folder cannot be written', () => {
    const off = loadWithCodeCache<Fixture>(bundle, undefined);
    expect(off.cache).toBe('off');
    expectWorking(off.exports);
    expect(readdirSync(dir)).toEqual(['app']);

    writeFileSync(join(dir, 'cache'), 'a file where the folder would go');
    const blocked = loadWithCodeCache<Fixture>(bundle, cacheDir);
    expect(blocked.cache).toBe('made');
    expect(() => blocked.keep()).not.toThrow();
    expectWorking(blocked.exports);
    expect(statSync(join(dir, 'cache')).isFile()).toBe(true);
  });

  it.skipIf(process.getuid?.() === 0)('starts as usual when the cache folder is read-only (not as root, who may write anyway)', () => {
    mkdirSync(cacheDir, { recursive: true });
    chmodSync(cacheDir, 0o500);
    const loaded = loadWithCodeCache<Fixture>(bundle, cacheDir);
    loaded.keep();
    expectWorking(loaded.exports);
    expect(cacheFiles()).toEqual([]);
  });

  it('reads a bundle that is not all ASCII as UTF-8', () => {
    const text = '→'.repeat(100_000);
    writeFileSync(bundle, wrapped([`exports.text = ${JSON.stringify(text)};`]));
    expect(loadWithCodeCache<{ text: string }>(bundle, undefined).exports.text).toBe(text);
  });

  it('refuses a file that is not a wrapped module, saying so', () => {
    writeFileSync(bundle, "exports.answer = 42;");
    expect(() => loadWithCodeCache(bundle, cacheDir)).toThrow(`${bundle} is not a wrapped module`);
  });

  it('keys the cache by this process\'s runtime', () => {
    const runtime = currentRuntime();
    expect(runtime.node).toBe(process.version);
    expect(runtime.v8).toBe(process.versions.v8);
    expect(runtime.flags).toContain(process.execArgv.join(' '));
  });
});
