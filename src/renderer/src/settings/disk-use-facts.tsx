// The "Disk" line of Settings → This desk: what the snapshots of base commits and the tasks' layers take in the data
// dir (hard links counted once). Measured when Settings opens.
import { useEffect, useState } from 'react';
import type { DiskUse } from '../../../shared/disk';
import { useDesk } from '../state/store';
import { byteSize } from '../ui/byte-size';

export function DiskUseFacts() {
  const api = useDesk((state) => state.api);
  const [use, setUse] = useState<DiskUse | undefined>();
  useEffect(() => {
    let live = true;
    api?.diskUse().then((measured) => { if (live) setUse(measured); }, () => { if (live) setUse(undefined); });
    return () => { live = false; };
  }, [api]);
  if (!use) return null;
  return (
    <>
      <dt>Disk</dt>
      <dd aria-label="Disk use of snapshots and task layers">
        {use.snapshots} snapshot{use.snapshots === 1 ? '' : 's'}: {byteSize(use.snapshotsBytes)}; task layers: {byteSize(use.layersBytes)}
      </dd>
      {use.worktrees && (
        <>
          <dt>Worktrees</dt>
          <dd aria-label="What new worktrees are">
            {use.worktrees.kind === 'layers'
              ? 'Copy-on-write layers over one snapshot of each base, in repositories of 2,000 files or more or with copy or prepare; checkouts elsewhere'
              : `Checkouts of their own: layers cannot be used here (${use.worktrees.reason ?? 'no reason given'})`}
          </dd>
        </>
      )}
    </>
  );
}
