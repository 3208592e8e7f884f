import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const DASHBOARDS = join(ROOT, 'dashboards');
/** A virtual file next to the tests, so `@grafana/schema` resolves from the project's node_modules. */
const CHECK_FILE = join(ROOT, 'test/artifacts/grafana-schema-check.ts');

/**
 * Each committed dashboard written as an object literal of @grafana/schema's `Dashboard`, so the
 * compiler checks every field name and every enumerated value (variable types, panel layout, links).
 * JSON has no enums: `AsJson` turns the schema's string enums into the strings they stand for.
 */
/**
 * The schema leaves a data source's own annotation fields out; these are the Prometheus data source's
 * (public/app/plugins/datasource/prometheus), which it reads from the annotation itself.
 */
const PROMETHEUS_ANNOTATION = `interface PrometheusAnnotation {
  expr: string;
  step?: string;
  titleFormat?: string;
  textFormat?: string;
  tagKeys?: string;
  useValueForTime?: boolean;
}`;

function checkSource(files: readonly string[]): string {
  const checks = files.map((file, index) => `export const dashboard${index}: Checked = ${readFileSync(join(DASHBOARDS, file), 'utf8')};`);
  return `import type { AnnotationQuery, Dashboard } from '@grafana/schema/dist/esm/raw/dashboard/x/Dashboard_types.gen';
type AsJson<T> = T extends string ? \`\${T}\` : T extends ReadonlyArray<infer U> ? AsJson<U>[] : T extends object ? { [K in keyof T]: AsJson<T[K]> } : T;
${PROMETHEUS_ANNOTATION}
type Checked = Omit<AsJson<Dashboard>, 'annotations'> & { annotations?: { list?: Array<AsJson<AnnotationQuery> & PrometheusAnnotation> } };
${checks.join('\n')}
`;
}

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es5.d.ts'],
  types: [],
};
/** The library and schema files, parsed once for every check. */
const parsed = new Map<string, ts.SourceFile | undefined>();

function typeErrors(source: string): string[] {
  const host = ts.createCompilerHost(OPTIONS);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) => {
    if (name === CHECK_FILE) return ts.createSourceFile(name, source, language);
    if (!parsed.has(name)) parsed.set(name, getSourceFile.call(host, name, language, ...rest));
    return parsed.get(name);
  };
  host.fileExists = (name) => name === CHECK_FILE || fileExists.call(host, name);
  host.readFile = (name) => (name === CHECK_FILE ? source : readFile.call(host, name));
  const program = ts.createProgram([CHECK_FILE], OPTIONS, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where =
      diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start) : undefined;
    return `${where ? `line ${where.line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

describe("the dashboards against @grafana/schema's Dashboard type", () => {
  const files = readdirSync(DASHBOARDS)
    .filter((file) => file.endsWith('.json'))
    .sort();

  it('type-check', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(typeErrors(checkSource(files))).toEqual([]);
  });

  it('would catch a dashboard that breaks the schema', () => {
    const smallest = [...files].sort(
      (a, b) => readFileSync(join(DASHBOARDS, a), 'utf8').length - readFileSync(join(DASHBOARDS, b), 'utf8').length,
    )[0];
    const broken = checkSource([smallest]).replace('"collapsed": false', '"collapsed": "no"');
    expect(typeErrors(broken).join('\n')).toMatch(/Type 'string' is not assignable to type 'boolean'/);
  });
});
