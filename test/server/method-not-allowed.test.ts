import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../helpers/stack.js';

describe('a wrong method on the /-/ paths', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it.each([
    ['GET', '/-/reload', 'POST'],
    ['PUT', '/-/reload', 'POST'],
    ['POST', '/-/healthy', 'GET, HEAD'],
    ['DELETE', '/-/ready', 'GET, HEAD'],
  ])('%s %s answers 405 with Allow: %s, as Prometheus does', async (method, path, allow) => {
    const response = await fetch(`${stack.url}${path}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(await response.text()).toContain(`${method} is not allowed on ${path}`);
  });

  it('answers 405, not 415, whatever the body of the wrong method', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const response = await fetch(`${stack.url}/-/reload`, { method: 'PUT', headers: form, body: 'a=1' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('leaves the right methods working', async () => {
    expect((await fetch(`${stack.url}/-/healthy`)).status).toBe(200);
    expect((await fetch(`${stack.url}/-/healthy`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${stack.url}/-/nope`)).status).toBe(404);
  });
});
