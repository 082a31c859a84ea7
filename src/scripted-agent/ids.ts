// Ids of sessions, tool calls, messages and permission requests, shaped as UUIDs (v4) but made without node:crypto,
// whose load costs every agent start ~3 ms of CPU: these ids must be unique within a process, never unguessable.

const HEX = '0123456789abcdef';

/** A random version-4 UUID string, from Math.random. */
export function newId(): string {
  let id = '';
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) id += '-';
    else if (i === 14) id += '4';
    // The variant's two high bits are 10: one of 8, 9, a, b.
    else if (i === 19) id += HEX[8 + Math.floor(Math.random() * 4)];
    else id += HEX[Math.floor(Math.random() * 16)];
  }
  return id;
}
