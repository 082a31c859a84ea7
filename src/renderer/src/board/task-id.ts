// The id a new task gets when the person leaves "Task id" empty.

export function generateTaskId(random: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes)): string {
  return `task-${[...random(new Uint8Array(4))].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
