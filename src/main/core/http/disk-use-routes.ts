// `GET /api/disk-use`: what snapshots and task layers take on disk, for Settings. Measured when asked (a walk of the
// snapshots), so it is never stale.
import type { DiskUse } from '../../../shared/disk';
import { apiRoutes } from '../../../shared/routes';
import type { Router } from './router';

export function addDiskUseRoutes(router: Router, deps: { measure(): Promise<DiskUse> }): void {
  router.on(apiRoutes.diskUse, async () => [200, await deps.measure()]);
}
