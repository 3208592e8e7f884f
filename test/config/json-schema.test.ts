import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configJsonSchema } from '../../src/config/json-schema.js';

const ROOT = new URL('../../', import.meta.url).pathname;

describe('config.schema.json', () => {
  it('is what the zod schema generates today (regenerate: npm run generate:schema)', () => {
    expect(readFileSync(`${ROOT}config.schema.json`, 'utf8')).toBe(configJsonSchema());
  });

  it('describes the config: unknown keys are refused, targets need a name and a url', () => {
    const schema = JSON.parse(configJsonSchema()) as {
      additionalProperties: boolean;
      properties: { targets: { items: { required: string[] } }; alerts: unknown; global: unknown };
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.targets.items.required).toEqual(expect.arrayContaining(['name', 'url']));
    expect(schema.properties).toHaveProperty('alerts');
  });

  it('accepts the example configs as written and refuses a misspelt key, as an editor would show', () => {
    const validate = new Ajv2020({ strict: false }).compile(JSON.parse(configJsonSchema()) as object);
    for (const file of ['config.example.yaml', 'config.minimal.yaml']) {
      expect(validate(parse(readFileSync(`${ROOT}${file}`, 'utf8'))), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(validate({ targets: [{ name: 'a', url: 'http://127.0.0.1:9650', colectors: {} }] })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({
      instancePath: '/targets/0',
      keyword: 'additionalProperties',
      params: { additionalProperty: 'colectors' },
    });
  });

  it('is referenced by a yaml-language-server line in every example config', () => {
    for (const file of ['config.example.yaml', 'config.minimal.yaml']) {
      expect(readFileSync(`${ROOT}${file}`, 'utf8').split('\n')[0], file).toBe('# yaml-language-server: $schema=./config.schema.json');
    }
  });
});
