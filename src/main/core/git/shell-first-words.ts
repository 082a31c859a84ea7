// POSIX sh has no arrays: a script that takes a command as the first k of its parameters runs it through a function
// that keeps the first k of its own arguments (it appends them, then shifts all that was there before; a function's
// parameters are its own). Shared by the two scripts the desk starts git through (git-runner.ts, checkout-first.ts).

/**
 * A shell function `name k word…` that keeps its first k words as "$@" and runs `command`, which names them
 * (e.g. `git "$@" </dev/null`).
 */
export function firstWordsFunction(name: string, command: string): string {
  return `${name}() { k=$1; shift; c=$(($# - k)); i=0; for a do if [ "$i" -lt "$k" ]; then set -- "$@" "$a"; fi; i=$((i + 1)); done; shift $((k + c)); ${command}; }`;
}
