// Cold start alone (issue 27): the desk's and the bare server's first `GET /`, alternating, more runs than `npm run
// bench` gives it. `npx tsx bench/cold-start.ts [runs]` after `npm run build`; prints both medians and their ratio.
import { benchColdStart } from './serve-process';

const runs = Number(process.argv[2] ?? 21);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`runs must be a whole number of at least 1, not ${process.argv[2]}`);
const result = await benchColdStart(runs);
process.stdout.write(`cold start, ${result.runs} alternating runs: desk ${result.deskMs.toFixed(1)} ms, bare ${result.bareMs.toFixed(1)} ms, ratio ${(result.deskMs / result.bareMs).toFixed(3)}\n`);
