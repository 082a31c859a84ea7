// Splits a one-line command (`--agent-command 'npx my-agent --acp'`) into words the way a shell does for simple quoting. Pure.
// Deliberately small: white space separates words, '…' keeps everything, "…" keeps everything but \" and \\.
// Outside quotes a backslash escapes only white space, a quote or a backslash, so Windows paths (C:\tools\agent.exe) stay whole.
import { DeskError } from '../../../shared/desk-error';

export const invalidCommandLine = (message: string) => new DeskError('invalid', 'invalid_command_line', message);

export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  let quoteStart = 0;

  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    const next = line[i + 1];
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && (next === '"' || next === '\\')) { word += next; i++; }
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      quoteStart = i;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (char === '\\' && next !== undefined && /[\s'"\\]/.test(next)) {
      word += next;
      inWord = true;
      i++;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote) throw invalidCommandLine(`the ${quote === '"' ? 'double' : 'single'} quote at position ${quoteStart + 1} is never closed`);
  if (inWord) words.push(word);
  if (words.length === 0) throw invalidCommandLine('the command is empty');
  return words;
}
