// A command taken from the middle of a shell's parameters, for the two scripts the desk starts git through
// (git-runner.ts, checkout-first.ts). POSIX sh has no arrays; a loop that rebuilds "$@" to keep the first k words
// costs time in the square of the parameters, and the agent's launcher has hundreds of them (the environment,
// bubblewrap's mounts): about 2 ms of the shell's CPU per task. Instead the script names the words by their
// positions, which it is built with: only numbers go into its text, every word stays a parameter.

/** `"${from}" "${from + 1}" … ` for `count` parameters: the words at those positions, each as one word. */
export function wordsAt(from: number, count: number): string {
  return Array.from({ length: count }, (_, index) => `"\${${from + index}}"`).join(' ');
}
