#!/usr/bin/env bash
# For the release that gives each workload a Secret of its own (docs/OPERATIONS.md, Releases): copies the values of
# the shared checkout-service-secrets and nats-identities into each workload's <workload>-secrets, rotating nothing.
# Run it before that release's apply: bash deploy/k8s/scripts/split-shared-secrets.sh. It stops at a value it cannot
# read, naming it, and keeps a new Secret that exists already, so it can run again once that is mended.
set -euo pipefail
if [ "${BASH_VERSINFO[0]}" -lt 4 ]; then echo "split-shared-secrets.sh needs bash 4 or later (this is $BASH_VERSION)" >&2; exit 1; fi

ns=interac-checkout
old() { kubectl -n $ns get secret "$1" -o go-template="{{index .data \"$2\" | base64decode}}"; }
# copy <new Secret> <KEY>=<old Secret>:<old key>...
copy() {
  local name=$1 pair key from field value args=()
  shift
  if kubectl -n $ns get secret "$name" >/dev/null 2>&1; then echo "$name exists: kept"; return 0; fi
  for pair in "$@"; do
    IFS='=:' read -r key from field <<< "$pair"
    if ! value=$(old "$from" "$field") || [ -z "$value" ]; then echo "$from has no $field: $name not created" >&2; return 1; fi
    args+=("--from-literal=$key=$value")
  done
  kubectl -n $ns create secret generic "$name" "${args[@]}"
}

copy gateway-secrets NATS_URL=nats-identities:gateway REDIS_URL=checkout-service-secrets:GATEWAY_REDIS_URL \
  ADMIN_TOKEN=checkout-service-secrets:ADMIN_TOKEN INGEST_TOKEN=checkout-service-secrets:INGEST_TOKEN \
  SERVER_SECRET=checkout-service-secrets:SERVER_SECRET
copy sessions-secrets NATS_URL=nats-identities:sessions REDIS_URL=checkout-service-secrets:SESSIONS_REDIS_URL
copy webhooks-secrets NATS_URL=nats-identities:webhooks REDIS_URL=checkout-service-secrets:WEBHOOKS_REDIS_URL \
  WEBHOOK_SECRET_KEYS=checkout-service-secrets:WEBHOOK_SECRET_KEYS
copy dashboard-secrets NATS_URL=nats-identities:dashboard REDIS_URL=checkout-service-secrets:DASHBOARD_REDIS_URL
for id in ledger ingest refunds checkout migrate mail-pipeline; do copy $id-secrets NATS_URL=nats-identities:$id; done
echo "copied. Next: point a mail relay of yours in the namespace at mail-pipeline-secrets (key NATS_URL) instead of"
echo "nats-identities (key mail-pipeline), apply the release (First install step 4), and once every pod is Ready:"
echo "  kubectl -n $ns delete secret checkout-service-secrets nats-identities"
