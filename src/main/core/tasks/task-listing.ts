// The task list clients read, kept in memory: one summary per task, updated on every write and serialized
// once per change, so `GET /` and `/api/tasks` cost what they send instead of rebuilding every row.
import { randomBytes } from 'node:crypto';
import type { TaskSummary } from '../../../shared/task';
import type { TaskListQuery } from '../../../shared/task-list';
import type { TaskRecord } from '../store/tasks-repo';

export interface TaskListPage {
  /** The page's summaries as a JSON array. */
  json: string;
  count: number;
  total: number;
  cursor: string;
  next?: number;
}

export interface TaskListing {
  /** Every summary, in submission order. */
  list(): TaskSummary[];
  get(id: string): TaskSummary | undefined;
  /** Every summary as one JSON array; `version` changes whenever the array does. */
  json(): { version: string; json: string };
  /** The summaries of one repository's tasks as one JSON array, made once per change. */
  jsonOf(repo: string): { version: string; json: string };
  page(query: TaskListQuery): TaskListPage;
}

export interface TaskListingWriter extends TaskListing {
  /** The task as it now stands in the database (after every write). */
  put(record: TaskRecord): void;
  /** Something besides the record changed for the task (its open questions): summarize it again. */
  refresh(id: string): void;
}

export interface TaskListingDeps {
  summarize(record: TaskRecord): TaskSummary;
  load(id: string): TaskRecord | undefined;
  /** Whether the agent runs without the sandbox now (the policy may change while the desk runs). */
  unsandboxed(agent: string): boolean;
  /** Called before every read, so summaries that change without a write (the agent's last activity) catch up. */
  beforeRead?(): void;
}

/** `json` is made when first listed: a burst of submissions should not serialize what nobody has asked for yet. */
interface Entry { seq: number; summary: TaskSummary; json: string | undefined; change: number }

const entryJson = (entry: Entry): string => (entry.json ??= JSON.stringify(entry.summary));

export function createTaskListing(initial: readonly TaskRecord[], deps: TaskListingDeps): TaskListingWriter {
  // A restart starts counting again: cursors and versions of another run must never match this one's.
  const epoch = randomBytes(6).toString('hex');
  const entries = new Map<string, Entry>();
  let change = 0;
  let ordered: Entry[] | undefined;
  let cachedJson: { version: string; json: string } | undefined;
  const cachedOfRepo = new Map<string, { version: string; json: string }>();
  const sandboxOf = new Map<string, boolean>();

  function set(id: string, seq: number, summary: TaskSummary): void {
    change += 1;
    cachedJson = undefined;
    const previous = entries.get(id);
    if (previous && previous.seq === seq) {
      // Changed in place: the order (and the ordered array) stays as it is.
      Object.assign(previous, { summary, json: undefined, change });
    } else {
      // A resubmission moves the task to the end, as its new seq says.
      entries.delete(id);
      const entry: Entry = { seq, summary, json: undefined, change };
      entries.set(id, entry);
      if (previous) ordered = undefined;
      else ordered?.push(entry);
    }
    // Only tasks on this machine's sandbox (no `runner`) say whether the agent is sandboxed.
    if (summary.runner === undefined && !sandboxOf.has(summary.agent)) sandboxOf.set(summary.agent, summary.unsandboxed === true);
  }

  /** The policy may have moved an agent into or out of the sandbox since its summaries were made. */
  function followSandbox(): void {
    for (const [agent, was] of sandboxOf) {
      const now = deps.unsandboxed(agent);
      if (now === was) continue;
      sandboxOf.set(agent, now);
      for (const [id, entry] of entries) {
        if (entry.summary.agent !== agent || entry.summary.runner !== undefined) continue;
        const { unsandboxed: _, ...rest } = entry.summary;
        set(id, entry.seq, now ? { ...rest, unsandboxed: true } : rest);
      }
    }
  }

  const inOrder = (): Entry[] => (ordered ??= [...entries.values()]);
  const cursor = () => `${epoch}.${change}`;

  // An attempt's own task is never listed: its task stands for it (./task-attempts.ts).
  for (const record of initial) if (!record.attemptOf) set(record.id, record.seq, deps.summarize(record));

  return {
    put(record) {
      if (!record.attemptOf) set(record.id, record.seq, deps.summarize(record));
    },
    refresh(id) {
      const record = deps.load(id);
      if (record && !record.attemptOf) set(id, record.seq, deps.summarize(record));
    },
    list() {
      deps.beforeRead?.();
      followSandbox();
      return inOrder().map((entry) => entry.summary);
    },
    get: (id) => {
      deps.beforeRead?.();
      return entries.get(id)?.summary;
    },
    json() {
      deps.beforeRead?.();
      followSandbox();
      cachedJson ??= { version: cursor(), json: `[${inOrder().map(entryJson).join(',')}]` };
      return cachedJson;
    },
    jsonOf(repo) {
      followSandbox();
      const version = cursor();
      let cached = cachedOfRepo.get(repo);
      if (cached?.version !== version) {
        cached = { version, json: `[${inOrder().filter((entry) => entry.summary.repo === repo).map(entryJson).join(',')}]` };
        cachedOfRepo.set(repo, cached);
      }
      return cached;
    },
    page(query) {
      deps.beforeRead?.();
      followSandbox();
      const since = query.since === undefined ? 0 : sinceChange(query.since, epoch);
      const statuses = query.status && new Set(query.status);
      const reviews = query.review && new Set(query.review);
      const all = inOrder();
      const descending = query.order === 'desc';
      const limit = query.limit ?? Number.POSITIVE_INFINITY;
      const picked: Entry[] = [];
      let total = 0;
      let more = false;
      for (let i = 0; i < all.length; i += 1) {
        const entry = all[descending ? all.length - 1 - i : i] as Entry;
        if (entry.change <= since) continue;
        if (statuses && !statuses.has(entry.summary.status)) continue;
        if (reviews && !reviews.has(entry.summary.review)) continue;
        if (query.repo !== undefined && entry.summary.repo !== query.repo) continue;
        if (query.archived !== undefined && (entry.summary.archived === true) !== query.archived) continue;
        total += 1;
        if (query.after !== undefined && (descending ? entry.seq >= query.after : entry.seq <= query.after)) continue;
        if (picked.length < limit) picked.push(entry);
        else more = true;
      }
      const last = picked.at(-1);
      return {
        json: `[${picked.map(entryJson).join(',')}]`,
        count: picked.length,
        total,
        cursor: cursor(),
        ...(more && last && { next: last.seq }),
      };
    },
  };
}

/** The change a cursor names; a cursor from another run of the desk names none (everything is newer). */
function sinceChange(cursor: string, epoch: string): number {
  const [cursorEpoch, count] = cursor.split('.');
  return cursorEpoch === epoch ? Number(count) : 0;
}
