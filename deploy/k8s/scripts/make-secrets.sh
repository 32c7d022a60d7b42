#!/usr/bin/env bash
# First install, step 3 (docs/OPERATIONS.md): every Secret of ../secrets.template.yaml, in the namespace, with fresh
# random values that agree with each other (the Redis ACL and the Redis URLs, the NATS server passwords and the NATS
# URLs). Each workload gets a Secret of its own, <workload>-secrets, holding only what it reads. Run it once, from
# anywhere: bash deploy/k8s/scripts/make-secrets.sh. It stops at the first failure (a Secret that exists already,
# say), leaving the ones it made: delete those (kubectl -n interac-checkout delete secret ...) before running it again.
set -euo pipefail
if [ "${BASH_VERSINFO[0]}" -lt 4 ]; then echo "make-secrets.sh needs bash 4 or later (this is $BASH_VERSION)" >&2; exit 1; fi
command -v openssl >/dev/null || { echo "make-secrets.sh needs openssl" >&2; exit 1; }

ns=interac-checkout
k="kubectl -n $ns create secret generic"
# Random hex of 24 bytes (rand) or 32 (long); a short read fails the assignment it is in, which stops the script.
rand() { local value; value=$(openssl rand -hex 24); [ ${#value} -eq 48 ] && echo "$value"; }
long() { local value; value=$(openssl rand -hex 32); [ ${#value} -eq 64 ] && echo "$value"; }

kubectl apply -f "$(dirname "$0")/../base/namespace.yaml"
# NATS: one password per bus identity, in the servers' Secret and in that identity's own NATS_URL.
route=$(rand)
server=(--from-literal=NATS_ROUTE_PASSWORD=p$route)
declare -A nats
for id in gateway sessions ledger ingest refunds webhooks checkout dashboard mail-pipeline migrate; do
  p=p$(rand)
  server+=(--from-literal=NATS_PASSWORD_$(echo $id | tr a-z- A-Z_)=$p)
  nats[$id]=--from-literal=NATS_URL=nats://$id:$p@nats:4222
done
$k nats-server-passwords "${server[@]}"
for id in ledger ingest refunds checkout mail-pipeline migrate; do $k $id-secrets "${nats[$id]}"; done
# Redis: one ACL user per service that uses it, the same password in its REDIS_URL.
rg=$(rand); rs=$(rand); rw=$(rand); rd=$(rand)
# The gateway's tokens and HKDF root; the webhooks' key that seals the endpoints' signing secrets.
admin=$(long); ingest=$(long); server_secret=$(long)
webhook_key=$(openssl rand -base64 32)
[ ${#webhook_key} -eq 44 ]
$k gateway-secrets "${nats[gateway]}" --from-literal=REDIS_URL=redis://gateway:$rg@redis:6379 \
  --from-literal=ADMIN_TOKEN=$admin --from-literal=INGEST_TOKEN=$ingest --from-literal=SERVER_SECRET=$server_secret
$k sessions-secrets "${nats[sessions]}" --from-literal=REDIS_URL=redis://sessions:$rs@redis:6379
$k webhooks-secrets "${nats[webhooks]}" --from-literal=REDIS_URL=redis://webhooks:$rw@redis:6379 \
  --from-literal=WEBHOOK_SECRET_KEYS="k1:$webhook_key"
$k dashboard-secrets "${nats[dashboard]}" --from-literal=REDIS_URL=redis://dashboard:$rd@redis:6379
$k redis-acl --from-literal=users.acl="user default on nopass -@all +ping
user gateway on >$rg ~gateway:* resetchannels +@all -@admin -@dangerous +info -scan -randomkey -script|flush -script|kill -function
user sessions on >$rs ~bull:session-expiry:* resetchannels +@all -@admin -@dangerous +info -scan -randomkey -script|flush -script|kill -function
user webhooks on >$rw ~bull:webhook-delivery:* resetchannels +@all -@admin -@dangerous +info -scan -randomkey -script|flush -script|kill -function
user dashboard on >$rd ~dashboard:* resetchannels +@all -@admin -@dangerous +info -scan -randomkey -script|flush -script|kill -function"
# Postgres: one login role per service with a schema, and the owner that runs the migrations.
for role in owner gateway ledger ingest webhooks; do
  password=$(rand)
  $k postgres-$role --type=kubernetes.io/basic-auth --from-literal=username=pp_$role --from-literal=password=$password
done
echo "every Secret made in $ns; prod also needs postgres-backup, the backup bucket's credentials (docs/OPERATIONS.md)"
