#!/bin/bash
# CPU of the scripted agent's start: the built agent answering one `initialize` line, beside a bare `node -e ''` and
# a bare node answering the same line through the same pipes. Rounds interleave the three, so a busy machine skews
# them alike; prints the median and least task-clock (ms) of each. Needs `perf` and `npm run build` first.
# Usage: bench/scripted-agent-start.sh [rounds] [agent.js]
set -euo pipefail
rounds=${1:-20}
agent=${2:-out/main/scripted-agent.cjs}
[ -f "$agent" ] || { echo "No $agent: run npm run build first." >&2; exit 1; }
command -v perf >/dev/null || { echo "perf is not installed (linux-perf / linux-tools)." >&2; exit 1; }

line='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}'
bare_answer="process.stdin.once('data', () => process.stdout.write('{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}\\n'))"

# One exchange: start the program, send the line, read one answer line, close its stdin, wait for it to exit.
exchange() {
  coproc PEER { "$@"; }
  printf '%s\n' "$line" >&"${PEER[1]}"
  IFS= read -r _ <&"${PEER[0]}"
  exec {PEER[1]}>&-
  wait "$PEER_PID"
}
export -f exchange
export line

cpu_ms() { perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ { print $1 }'; }

labels=("node -e ''" "bare node answering one line" "scripted agent: start + initialize")
commands=("node -e ''" "exchange node -e $(printf %q "$bare_answer")" "exchange node $(printf %q "$agent")")
declare -a samples=("" "" "")
for ((round = 0; round < rounds; round++)); do
  for i in 0 1 2; do samples[i]+="$(cpu_ms bash -c "${commands[i]}") "; done
done
for i in 0 1 2; do
  tr ' ' '\n' <<<"${samples[i]}" | grep . | sort -n |
    awk -v label="${labels[i]}" '{ v[NR] = $1 } END { printf "%-38s median %6.1f ms  least %6.1f ms  (%d runs)\n", label, v[int((NR + 1) / 2)], v[1], NR }'
done
