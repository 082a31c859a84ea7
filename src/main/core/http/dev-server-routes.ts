// A task's dev server over HTTP: start (201, or 200 with the one already running), read its state, stop it.
import { devServerRoutes } from '../../../shared/routes';
import type { DevServerService } from '../dev-server/dev-server-service';
import type { Router } from './router';

export function addDevServerRoutes(router: Router, deps: { devServers: DevServerService }): void {
  const { devServers } = deps;
  router
    .on(devServerRoutes.startDevServer, async ({ params }) => {
      const { created, state } = await devServers.start(params.id);
      return created ? [201, state] : [200, state];
    })
    .on(devServerRoutes.devServer, async ({ params }) => [200, { devServer: devServers.state(params.id) }])
    .on(devServerRoutes.stopDevServer, async ({ params }) => [200, { devServer: await devServers.stop(params.id) }]);
}
