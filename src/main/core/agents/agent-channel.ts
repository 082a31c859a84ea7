// The message channel to an agent process: its stdout and stdin as newline-delimited JSON.
import type { Readable, Writable } from 'node:stream';
import { Readable as NodeReadable, Writable as NodeWritable } from 'node:stream';
import { PeerClosedError } from '../../../shared/json-rpc-peer';
import { ndjsonChannel, type MessageChannel } from '../../../shared/ndjson-channel';

/** `onNoise` gets lines that are not JSON (agents sometimes print to stdout by mistake). */
export function agentChannel(stdout: Readable, stdin: Writable, onNoise: (line: string) => void = () => {}): MessageChannel {
  return ndjsonChannel(
    // Node's web-stream types and the DOM lib's are the same objects at run time but distinct to TypeScript.
    NodeWritable.toWeb(stdin) as unknown as WritableStream<Uint8Array>,
    NodeReadable.toWeb(stdout) as unknown as ReadableStream<Uint8Array>,
    { onNoise, endedError: () => new PeerClosedError('The agent closed its output') },
  );
}
