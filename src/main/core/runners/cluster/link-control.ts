// The desk's end of a runner connection's control channel: numbered requests to the helper and their answers,
// and the helper's notifications — every line checked against the wire's schemas, since it comes from a container.
import { INTERNAL_ERROR, JsonRpcError, PeerClosedError } from '../../../../shared/json-rpc-peer';
import { HelperControlMessage, type RunnerMethod, type RunnerNotification, type RunnerRequests } from '../../../../shared/runner-link';

export interface LinkControl {
  /** Asks the helper; rejects with JsonRpcError when it answers with an error, PeerClosedError once the link closed. */
  request<M extends RunnerMethod>(method: M, params: RunnerRequests[M]): Promise<unknown>;
  /** Reads one control line (without its tag); answers settle their request, a notification is returned. */
  receive(json: string): RunnerNotification | undefined;
  /** Fails everything pending; later requests fail at once. */
  close(error: Error): void;
}

export interface LinkControlOptions {
  /** Writes one control line (without its tag). */
  send(json: string): void;
  /** A line that is not a well-formed answer or notification: dropped, and said here. */
  onMalformed(reason: string): void;
  /** Requests waiting for an answer at most; more fail at once (a helper that never answers costs bounded memory). */
  maxPending?: number;
}

const DEFAULT_MAX_PENDING = 1024;

export function createLinkControl(options: LinkControlOptions): LinkControl {
  const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let closedWith: Error | undefined;

  return {
    request(method, params) {
      if (closedWith) return Promise.reject(closedWith);
      if (pending.size >= maxPending) return Promise.reject(new JsonRpcError(INTERNAL_ERROR, `The runner has ${pending.size} requests unanswered; ${method} was not sent.`));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        options.send(JSON.stringify({ id, method, params }));
      });
    },

    receive(json) {
      let raw: unknown;
      try {
        raw = JSON.parse(json);
      } catch {
        options.onMalformed('a control line that is not JSON');
        return undefined;
      }
      const parsed = HelperControlMessage.safeParse(raw);
      if (!parsed.success) {
        options.onMalformed('a control message of an unknown shape');
        return undefined;
      }
      const message = parsed.data;
      if (!('id' in message)) return message;
      const waiter = pending.get(message.id);
      // An answer nobody waits for (or a made-up id) changes nothing.
      if (!waiter) return undefined;
      pending.delete(message.id);
      if ('error' in message) waiter.reject(new JsonRpcError(message.error.code ?? INTERNAL_ERROR, message.error.message));
      else waiter.resolve(message.result);
      return undefined;
    },

    close(error) {
      if (closedWith) return;
      closedWith = error instanceof PeerClosedError ? error : new PeerClosedError(error.message);
      for (const waiter of pending.values()) waiter.reject(closedWith);
      pending.clear();
    },
  };
}
