#!/usr/bin/env node
/**
 * Validates Kubernetes manifests against the API's OpenAPI schemas, as compiled into the
 * `kubernetes-models` package: `node tools/deploy/validate-kubernetes.js < rendered.yaml`.
 * Prints one JSON line: [{ apiVersion, kind, name, errors }], where errors is null when the document
 * is valid, and `unknown` lists documents of kinds the package has no model for (custom resources,
 * which deploy/kubernetes-manifests.unit.spec.ts checks against their own schema).
 * A separate process because kubernetes-models is published only as ES modules, which Jest's
 * CommonJS runtime cannot load; Node loads them natively.
 */
const { parseAllDocuments } = require('yaml');

/** The package path of a model: apps/v1 + Deployment → kubernetes-models/apps/v1/Deployment. */
const modelPath = ({ apiVersion, kind }) => `kubernetes-models/${apiVersion}/${kind}`;

async function main() {
  const input = require('node:fs').readFileSync(0, 'utf8');
  const documents = parseAllDocuments(input).map((doc) => doc.toJS()).filter(Boolean);
  const results = [];
  for (const document of documents) {
    const name = document.metadata?.name;
    let Model;
    try {
      Model = (await import(modelPath(document)))[document.kind];
    } catch {
      Model = undefined;
    }
    if (!Model) {
      results.push({ apiVersion: document.apiVersion, kind: document.kind, name, unknown: true });
      continue;
    }
    try {
      new Model(document).validate();
      results.push({ apiVersion: document.apiVersion, kind: document.kind, name, errors: null });
    } catch (error) {
      results.push({ apiVersion: document.apiVersion, kind: document.kind, name, errors: error.errors ?? [String(error.message)] });
    }
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
