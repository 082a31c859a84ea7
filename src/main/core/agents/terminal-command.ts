// What a terminal runs for an agent's `terminal/create`: the program and its arguments, or a shell line through a shell. Pure.
// claude-code-acp (and other agents written for editors) send a whole shell line as `command` with no `args`
// ("cat a.txt && echo done"); editors run that through a shell, so the desk does too rather than fail with execvp.

/** Characters that make a command line more than one program name. */
const SHELL_LINE = /[\s|&;<>()$`\\"'*?[\]{}~#=!]/;

export function terminalLaunch(command: string, args: readonly string[], platform: NodeJS.Platform = process.platform): { command: string; args: string[] } {
  if (args.length > 0 || !SHELL_LINE.test(command)) return { command, args: [...args] };
  return platform === 'win32' ? { command: 'cmd.exe', args: ['/d', '/s', '/c', command] } : { command: '/bin/sh', args: ['-c', command] };
}
