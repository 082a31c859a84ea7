import { describe, expect, it } from 'vitest';
import { outcomeFor, permissionFacts, toolCallCommand } from './permission-facts';

const options = [
  { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
  { optionId: 'always', name: 'Always', kind: 'allow_always' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];

describe('permissionFacts', () => {
  it('gathers the paths from locations and raw input, and reads the command', () => {
    expect(permissionFacts({ toolCall: { kind: 'execute', title: 'Run tests', locations: [{ path: 'src/a.ts' }], rawInput: { command: 'npm', args: ['test'], file_path: '/etc/passwd' } }, options: [] }))
      .toEqual({ kind: 'execute', title: 'Run tests', paths: ['src/a.ts', '/etc/passwd'], command: 'npm test' });
  });

  it('describes a request that says little', () => {
    expect(permissionFacts({ toolCall: { rawInput: { command: ['git', 'push'] } }, options: [] }))
      .toEqual({ kind: 'other', title: 'Run git push', paths: [], command: 'git push' });
  });

  it('checks an execute request without a command by its title', () => {
    expect(permissionFacts({ toolCall: { kind: 'execute', title: 'rm -rf /' }, options: [] })).toMatchObject({ command: 'rm -rf /' });
  });
});

describe('toolCallCommand', () => {
  it('reads the command line the tool call carries as data, and never guesses one from its title', () => {
    expect(toolCallCommand({ kind: 'execute', title: 'Run tests', rawInput: { command: 'sh', args: ['-c', 'npm test'] } })).toBe('sh -c npm test');
    expect(toolCallCommand({ kind: 'execute', title: 'npm test' })).toBeUndefined();
  });
});

describe('outcomeFor', () => {
  it('prefers the once options', () => {
    expect(outcomeFor(options, 'allow')).toEqual({ outcome: 'selected', optionId: 'yes' });
    expect(outcomeFor(options, 'reject')).toEqual({ outcome: 'selected', optionId: 'no' });
  });

  it('cancels when the agent offers no matching option', () => {
    expect(outcomeFor([options[0] as never], 'reject')).toEqual({ outcome: 'cancelled' });
  });
});
