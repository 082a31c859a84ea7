// A task's working time: ticks with the shared clock while its agent works, held while it waits, "took …" once
// its run is over. The core counts it (only time in-progress); the card adds the open stretch.
import { formatElapsed, type CardTime } from '../state/selectors';
import { useNow } from './use-now';

function Ticking({ ms, since }: { ms: number; since: number }) {
  const now = useNow();
  return <>{formatElapsed(ms + now - since)}</>;
}

export function Elapsed({ time }: { time: CardTime }) {
  switch (time.kind) {
    case 'none':
      return null;
    case 'working':
      return <span className="elapsed" title="Time its agent has worked so far"><Ticking ms={time.ms} since={time.since} /></span>;
    case 'paused':
      return <span className="elapsed" title="Time its agent worked; the clock waits while it does">worked {formatElapsed(time.ms)}</span>;
    case 'took':
      return <span className="elapsed" title="Time its agent worked (not time queued, waiting for you or in review)">took {formatElapsed(time.ms)}</span>;
  }
}
