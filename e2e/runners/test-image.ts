// The runner specs' image, built without a registry: the dynamic loader and libraries this machine's Node and git need,
// imported as a root file system (a few MB). Node and git come read-only from this machine through the runner's
// `mounts`, as an agent installed here would: with vfs storage every container copies its whole image, and a
// 100 MB Node in it made each start and removal slow. Tagged by the content's hash, so it is built once per daemon.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type Dockerode from 'dockerode';

export async function buildTestImage(docker: Dockerode): Promise<string> {
  const node = realpathSync(process.execPath);
  // Git comes mounted too (the cluster runner's helper clones and pushes with it); its libraries are in the image.
  const files = [...new Set([node, ...GIT_PROGRAMS].flatMap((program) => sharedLibraries(program)))];
  const hash = createHash('sha256');
  for (const file of [...files, SHELL]) hash.update(file).update(await fileHash(file));
  for (const path of nodePaths()) hash.update(`mount point ${path}`);
  for (const dir of gitPaths()) hash.update(`mount point dir ${dir}`);
  const tag = `desk-test-node:${hash.digest('hex').slice(0, 16)}`;
  if (await docker.getImage(tag).inspect().then(() => true, () => false)) return tag;

  const root = mkdtempSync(join(tmpdir(), 'desk-test-image-'));
  try {
    for (const file of files) {
      mkdirSync(join(root, dirname(file)), { recursive: true });
      copyFileSync(file, join(root, file));
    }
    for (const dir of ['tmp', 'etc', 'proc', 'dev', 'sys']) mkdirSync(join(root, dir), { recursive: true });
    // Where the mounted Node lands: a bind mount needs its target to exist.
    for (const path of nodePaths()) {
      mkdirSync(join(root, dirname(path)), { recursive: true });
      writeFileSync(join(root, path), '');
    }
    for (const dir of gitPaths()) mkdirSync(join(root, dir), { recursive: true });
    // A shell for the commands agents run (`sh -c …`): Debian's dash needs only the C library already there.
    mkdirSync(join(root, 'bin'), { recursive: true });
    copyFileSync(SHELL, join(root, 'bin', 'sh'));
    writeFileSync(join(root, GIT), '');
    const [repo, version] = tag.split(':') as [string, string];
    const tar = spawn('tar', ['-C', root, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const stream = await docker.importImage(tar.stdout as unknown as string, { repo, tag: version });
    await new Promise<void>((resolve, reject) => docker.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve())));
    return tag;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const GIT = '/usr/bin/git';
const SHELL = realpathSync('/bin/sh');
const GIT_PROGRAMS = [GIT, '/usr/lib/git-core/git-remote-http'];

/** What a container needs mounted to run this machine's git: the program, its helpers and its templates. */
export function gitPaths(): string[] {
  return ['/usr/lib/git-core', '/usr/share/git-core'];
}

/** Every path the runner specs mount read-only: this machine's Node and git. */
export function mountedTools(): string[] {
  return [...nodePaths(), GIT, ...gitPaths()];
}

/** The Node running the tests, by the path agent specs name (`process.execPath`) and its real path. */
export function nodePaths(): string[] {
  return [...new Set([process.execPath, realpathSync(process.execPath)])];
}

/** The libraries `ldd` says a program loads, the dynamic loader included (real paths, so copies are files). */
function sharedLibraries(program: string): string[] {
  const out = spawnSync('ldd', [program], { encoding: 'utf8' }).stdout;
  const paths = [...out.matchAll(/(\/[^\s)]+)/g)].map((match) => match[1] as string).filter((path) => path !== program);
  const all = new Set<string>();
  for (const path of paths) {
    all.add(path);
    try {
      all.add(realpathSync(path));
    } catch {
      // Listed but absent: the loader does without it.
    }
  }
  return [...all];
}

function fileHash(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file).on('data', (chunk) => hash.update(chunk)).on('end', () => resolve(hash.digest('hex'))).on('error', reject);
  });
}
