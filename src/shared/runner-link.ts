// The wire between the desk and `desk-runner`, the helper that runs an agent in a cluster container: one upgraded
// HTTP connection carrying the agent's ACP stream unchanged and a small control channel, told apart by a tag.
//
// Connection
//   The helper sends `GET <DESK_RUNNER_URL>/connect HTTP/1.1` with `Connection: Upgrade`, `Upgrade: desk-runner`
//   and `Authorization: Bearer <DESK_RUNNER_TOKEN>`. The desk checks the token and answers
//   `101 Switching Protocols` with `Upgrade: desk-runner` (any other answer: the helper gives up). From then on
//   both sides write UTF-8 lines ending in `\n`, each bounded by MAX_LINK_LINE_BYTES.
//
// Lines
//   `a` + an ACP message line, exactly as the agent wrote it on stdout (helper → desk) or as the desk wrote it for
//         the agent's stdin (desk → helper).
//   `r` + one JSON object of the control channel.
//   The helper prefixes every line of the agent's stdout with `a`, so an agent can never forge a control message.
//
// Control channel (JSON-RPC-like; no `jsonrpc` field needed)
//   desk → helper requests `{"id":n,"method":m,"params":p}`, answered `{"id":n,"result":r}` or
//   `{"id":n,"error":{"message":s,"code"?:c}}`:
//     files/read       {path, line?, limit?}                                       → {content}
//     files/write      {path, content}                                             → {}
//     terminal/create  {terminalId, command, args, env:[{name,value}], cwd, outputByteLimit?} → {cwd?} (the real cwd)
//     terminal/kill    {terminalId}                                                → {}
//     terminal/write   {terminalId, data}                                          → {}
//     terminal/release {terminalId}                                                → {}
//     push             {}                                                          → {commit}
//   helper → desk notifications `{"method":m,"params":p}`:
//     log             {line}                              a line of the agent's stderr
//     terminal/output {terminalId, data}                  stdout and stderr of a terminal, batched
//     terminal/exit   {terminalId, exitCode, signal}      after its last output
//     exit            {code, signal}                      the agent exited; the helper then closes the connection
//   Paths are absolute paths inside the clone, which sits at the same absolute path as the desk's worktree; the
//   helper refuses any path outside it (after resolving symlinks) with an error answer (code -32602).
//   The helper runs on a bare Node without dependencies, so it checks requests by hand; the desk, which trusts
//   nothing from the container, parses every control line with the schemas below.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

/** The `Upgrade` protocol name both sides use. */
export const RUNNER_UPGRADE_PROTOCOL = 'desk-runner';
/** Tag of a line carrying an ACP message. */
export const ACP_LINE_TAG = 'a';
/** Tag of a line carrying a control message. */
export const CONTROL_LINE_TAG = 'r';
/** Longer lines are dropped whole (a file of a few MB still fits as one `files/read` answer). */
export const MAX_LINK_LINE_BYTES = 16 * 1024 * 1024;

const TerminalId = lazySchema(() => z.string().min(1).max(200));

export const FilesReadParams = lazySchema(() => z.object({
  path: z.string().min(1),
  line: z.number().int().positive().optional(),
  limit: z.number().int().positive().optional(),
}));
export type FilesReadParams = z.infer<typeof FilesReadParams>;
export const FilesReadResult = lazySchema(() => z.object({ content: z.string() }));

export const FilesWriteParams = lazySchema(() => z.object({ path: z.string().min(1), content: z.string() }));
export type FilesWriteParams = z.infer<typeof FilesWriteParams>;

export const TerminalCreateParams = lazySchema(() => z.object({
  terminalId: TerminalId,
  command: z.string().min(1),
  args: z.array(z.string()),
  env: z.array(z.object({ name: z.string().min(1), value: z.string() })),
  /** Absolute, or relative to the clone; null for the clone itself. */
  cwd: z.string().nullable(),
  outputByteLimit: z.number().int().nonnegative().optional(),
}));
export type TerminalCreateParams = z.infer<typeof TerminalCreateParams>;
export const TerminalCreateResult = lazySchema(() => z.object({ cwd: z.string().optional() }));

export const TerminalRef = lazySchema(() => z.object({ terminalId: TerminalId }));
export const TerminalWriteParams = lazySchema(() => z.object({ terminalId: TerminalId, data: z.string() }));

export const PushResult = lazySchema(() => z.object({ commit: z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/) }));

/** The requests the desk makes of the helper, with their params' types. */
export interface RunnerRequests {
  'files/read': FilesReadParams;
  'files/write': FilesWriteParams;
  'terminal/create': TerminalCreateParams;
  'terminal/kill': z.infer<typeof TerminalRef>;
  'terminal/write': z.infer<typeof TerminalWriteParams>;
  'terminal/release': z.infer<typeof TerminalRef>;
  push: Record<string, never>;
}
export type RunnerMethod = keyof RunnerRequests;

export const RunnerNotification = lazySchema(() => z.discriminatedUnion('method', [
  z.object({ method: z.literal('log'), params: z.object({ line: z.string() }) }),
  z.object({ method: z.literal('terminal/output'), params: z.object({ terminalId: TerminalId, data: z.string() }) }),
  z.object({
    method: z.literal('terminal/exit'),
    params: z.object({ terminalId: TerminalId, exitCode: z.number().int().nullable(), signal: z.string().nullable() }),
  }),
  z.object({ method: z.literal('exit'), params: z.object({ code: z.number().int().nullable(), signal: z.string().nullable() }) }),
]));
export type RunnerNotification = z.infer<typeof RunnerNotification>;

// The error shape first: `result: unknown` would also accept (and strip) an error answer.
export const RunnerAnswer = lazySchema(() => z.union([
  z.object({ id: z.number().int(), error: z.object({ message: z.string(), code: z.number().int().optional() }) }),
  z.object({ id: z.number().int(), result: z.unknown() }),
]));
export type RunnerAnswer = z.infer<typeof RunnerAnswer>;

/** One control line from the helper: an answer to a desk request, or a notification. */
export const HelperControlMessage = lazySchema(() => z.union([RunnerAnswer, RunnerNotification]));
export type HelperControlMessage = z.infer<typeof HelperControlMessage>;
