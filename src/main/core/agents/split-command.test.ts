import { describe, expect, it } from 'vitest';
import { splitCommandLine } from './split-command';

describe('splitCommandLine', () => {
  it.each([
    ['gemini --acp', ['gemini', '--acp']],
    ['  opencode   acp  ', ['opencode', 'acp']],
    [`node '/My Agents/agent.js' --name "Desk agent"`, ['node', '/My Agents/agent.js', '--name', 'Desk agent']],
    [`agent --json '{"a": 1}'`, ['agent', '--json', '{"a": 1}']],
    [`agent "say \\"hi\\"" 'it\\s'`, ['agent', 'say "hi"', 'it\\s']],
    [`agent --prefix=" x "y`, ['agent', '--prefix= x y']],
    [`agent '' ""`, ['agent', '', '']],
    ['/opt/My\\ Agent/run --acp', ['/opt/My Agent/run', '--acp']],
    ['C:\\tools\\agent.exe --acp', ['C:\\tools\\agent.exe', '--acp']],
  ])('splits %s', (line, words) => {
    expect(splitCommandLine(line)).toEqual(words);
  });

  it('refuses an unbalanced quote and says which one', () => {
    expect(() => splitCommandLine(`agent --name "Desk agent`)).toThrow(expect.objectContaining({ code: 'invalid_command_line' }));
    expect(() => splitCommandLine(`agent --name "Desk agent`)).toThrow('the double quote at position 14 is never closed');
    expect(() => splitCommandLine(`agent 'x`)).toThrow('single quote');
  });

  it('refuses an empty command', () => {
    expect(() => splitCommandLine('   ')).toThrow('the command is empty');
  });
});
