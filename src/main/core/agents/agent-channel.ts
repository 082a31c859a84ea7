// The message channel to an agent process: its stdout and stdin as newline-delimited JSON.
import type { Readable, Writable } from 'node:stream';
import { PeerClosedError } from '../../../shared/json-rpc-peer';
import { ndjsonChannelOver, type MessageChannel } from '../../../shared/ndjson-channel';
import { pipeSink, pipeSource } from './pipe-ends';

/** `onNoise` gets lines that are not JSON (agents sometimes print to stdout by mistake). */
export function agentChannel(stdout: Readable, stdin: Writable, onNoise: (line: string) => void = () => {}): MessageChannel {
  return ndjsonChannelOver(pipeSink(stdin), pipeSource(stdout), { onNoise, endedError: () => new PeerClosedError('The agent closed its output') });
}
