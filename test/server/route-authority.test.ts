import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { STATE_CHANGING_METHODS, needs, requireRouteDeclarations, routeDeclarations } from '../../src/server/route-authority.js';
import { startStack, type Stack } from '../helpers/stack.js';

let stack: Stack | undefined;
afterAll(async () => stack?.close());

describe('route declarations', () => {
  // Listed as registered, so a route added anywhere later is checked without this test naming it.
  it('every registered route declares its authority, and every state-changing one a write authority', async () => {
    stack = await startStack({ extraYaml: `alerts:\n  state_dir: ${mkdtempSync(join(tmpdir(), 'avaxmon-routes-'))}\n` });
    const routes = routeDeclarations(stack.daemon.app);
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      expect(route.authority, `${route.methods} ${route.url}`).toBeDefined();
      if (route.methods.some((method) => STATE_CHANGING_METHODS.has(method)))
        expect(['silences', 'lifecycle', 'refuse'], `${route.methods} ${route.url}`).toContain(route.authority);
    }
    const writes = routes
      .filter((route) => route.authority === 'silences' || route.authority === 'lifecycle')
      .map((route) => `${route.methods} ${route.url} ${route.authority}`);
    expect(writes.sort()).toEqual(['DELETE /api/v2/silence/:id silences', 'POST /-/reload lifecycle', 'POST /api/v2/silences silences']);
    // A route declared 'refuse' answers 405 to every method it has, and so changes nothing.
    for (const route of routes.filter((candidate) => candidate.authority === 'refuse')) {
      for (const method of route.methods.filter((candidate) => candidate !== 'HEAD')) {
        const answer = await stack.daemon.app.inject({ method: method as 'PUT', url: route.url });
        expect(answer.statusCode, `${method} ${route.url}`).toBe(405);
      }
    }
  });

  it('refuses to register a route without a declaration, or a state-changing route declared as a read', () => {
    const app = Fastify();
    requireRouteDeclarations(app);
    expect(() => app.get('/undeclared', async () => 'x')).toThrow(/GET \/undeclared declares no authority/);
    expect(() => app.post('/sneaky', needs('read'), async () => 'x')).toThrow(/POST \/sneaky changes state but declares only 'read'/);
    expect(() => app.route({ method: ['GET', 'PUT'], url: '/mixed', ...needs('read'), handler: async () => 'x' })).toThrow(
      /GET,PUT \/mixed changes state/,
    );
    expect(() => app.delete('/declared', needs('silences'), async () => 'x')).not.toThrow();
  });
});
