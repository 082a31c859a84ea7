// Time since a task was submitted: ticks with the shared clock while it runs, fixed once it ended.
import { formatElapsed } from '../state/selectors';
import { useNow } from './use-now';

function Ticking({ since }: { since: number }) {
  const now = useNow();
  return <>{formatElapsed(now - since)}</>;
}

export function Elapsed({ since, until }: { since: number; until: number | undefined }) {
  return (
    <span className="elapsed" title={until === undefined ? 'Time since it was submitted' : 'Time it took'}>
      {until === undefined ? <Ticking since={since} /> : formatElapsed(until - since)}
    </span>
  );
}
