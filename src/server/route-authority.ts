import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';

/**
 * What a route needs from its caller, declared where the route is registered. The write guard reads
 * it from the route the router matched, after the path was decoded, so no spelling of a path
 * (`%73ilences`, `%72eload`) reaches a state-changing handler without its authority being checked.
 *
 * - `read`: open to whoever passes authentication, as Prometheus expects of /metrics and Alertmanager of GET /api/v2/*.
 * - `silences`: creates or expires silences (`--web.enable-silences`).
 * - `lifecycle`: reloads the config (`--web.enable-lifecycle`).
 * - `refuse`: answers every method it has with 405 (a wrong method on a `/-/` path): changes nothing.
 */
export type Authority = 'read' | 'silences' | 'lifecycle' | 'refuse';

export type WriteAuthority = Exclude<Authority, 'read' | 'refuse'>;

declare module 'fastify' {
  interface FastifyContextConfig {
    authority?: Authority;
  }
}

/** The route options that declare `authority`: `app.post('/-/reload', needs('lifecycle'), handler)`. */
export function needs(authority: Authority): { config: { authority: Authority } } {
  return { config: { authority } };
}

/** Methods a route may change state with; a route answering one of them must declare a write authority. */
export const STATE_CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The matched route's declaration; undefined when no route matched (fastify's 404). */
export function authorityOf(request: FastifyRequest): Authority | undefined {
  return request.is404 ? undefined : request.routeOptions.config.authority;
}

/** Why a route may not be registered as declared, or undefined when it may. */
function declarationProblem(route: Pick<RouteOptions, 'method' | 'url' | 'config'>): string | undefined {
  const methods = [route.method].flat();
  const authority = route.config?.authority;
  const where = `route ${methods.join(',')} ${route.url}`;
  if (authority === undefined)
    return `${where} declares no authority: register it with needs('read' | 'silences' | 'lifecycle' | 'refuse')`;
  if (authority === 'read' && methods.some((method) => STATE_CHANGING_METHODS.has(method)))
    return `${where} changes state but declares only 'read': declare needs('silences') or needs('lifecycle')`;
  return undefined;
}

/** A registered route and what it declared, as the write guard will read it. */
export interface RouteDeclaration {
  readonly methods: readonly string[];
  readonly url: string;
  readonly authority: Authority | undefined;
}

const declarations = new WeakMap<FastifyInstance, RouteDeclaration[]>();

/** Every route registered on `app` since requireRouteDeclarations, auto-added HEAD routes included. */
export function routeDeclarations(app: FastifyInstance): readonly RouteDeclaration[] {
  return declarations.get(app) ?? [];
}

/**
 * Refuses, when the app is built, any route registered after this without a declaration, and any
 * state-changing route declared as a read: a forgotten declaration fails at start-up, never open.
 */
export function requireRouteDeclarations(app: FastifyInstance): void {
  const routes: RouteDeclaration[] = [];
  declarations.set(app, routes);
  app.addHook('onRoute', (route) => {
    const problem = declarationProblem(route);
    if (problem) throw new Error(problem);
    routes.push({ methods: [route.method].flat().map(String), url: route.url, authority: route.config?.authority });
  });
}
