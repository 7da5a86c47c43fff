/**
 * Every route of the cal/events/v1 namespace, in the original's registration order. The
 * dispatcher serves this list; the namespace index and `/doc` describe it.
 */
import { indexParams } from '../../../shared/schema/queries';
import { route, type RouteDef } from '../http/route-table';
import { namespaceIndex, openApiDocument } from '../http/describe';
import { eventRoutes } from './events';
import { conflictRoutes } from './conflicts';
import { linkedRoutes } from './linked-posts';
import { termRoutes } from './terms';
import { transferRoutes } from './transfer';
import { reminderRoutes } from './reminders';
import { settingsRoutes } from './settings';
import { syncRoutes } from './sync';
import { subscriptionRoutes } from './subscriptions';
import { accountRoutes } from './accounts';
import { trashRoutes } from './trash';
import { quickAddRoutes } from './quick-add';
import { siteRoutes } from './sites';

export function allRoutes(): RouteDef[] {
  const routes: RouteDef[] = [];
  routes.push(
    route('', [
      {
        methods: ['GET'],
        summary: 'The namespace index: every route with its methods and arguments.',
        args: indexParams,
        write: false,
        response: 'object',
        errors: [],
        handler: (req) => ({ body: namespaceIndex(routes, req.url.apiRoot) }),
      },
    ]),
    route('/doc', [
      {
        methods: ['GET'],
        summary: 'This API as an OpenAPI 3 document.',
        args: {},
        write: false,
        response: 'object',
        errors: [],
        handler: (req) => ({ body: openApiDocument(routes, req.url.apiRoot) }),
      },
    ]),
    ...eventRoutes,
    ...conflictRoutes,
    ...linkedRoutes('venue'),
    ...linkedRoutes('organizer'),
    ...termRoutes('category'),
    ...termRoutes('tag'),
    ...transferRoutes,
    ...reminderRoutes,
    ...settingsRoutes,
    ...accountRoutes,
    ...siteRoutes,
    ...syncRoutes,
    ...subscriptionRoutes,
    ...trashRoutes,
    ...quickAddRoutes,
  );
  return routes;
}
