#!/bin/sh
# The database roles (docs/ARCHITECTURE.md, "Tables"), created by the postgres
# container the first time it initialises its data volume
# (/docker-entrypoint-initdb.d). pp_owner owns the database and runs the
# migrations; each service with a schema logs in as its own role, which owns
# nothing and gets its grants from the migrations. Passwords come from the
# environment only: no default, at least 24 letters or digits (URL-safe, as
# they go into connection URLs), e.g. `openssl rand -hex 24`.
# Rotate one: \password pp_<name> in psql (docs/OPERATIONS.md, "Rotate secrets and keys"); then change its variable and restart that service.
set -eu

ROLES="pp_owner:PP_DB_OWNER_PASSWORD pp_gateway:PP_DB_GATEWAY_PASSWORD pp_ledger:PP_DB_LEDGER_PASSWORD pp_ingest:PP_DB_INGEST_PASSWORD pp_webhooks:PP_DB_WEBHOOKS_PASSWORD"

password_of() { eval "printf '%s' \"\${$1:-}\""; }

# Every password is checked before any role is made: a failed first start leaves no half-made set.
for pair in $ROLES; do
  variable=${pair#*:}
  if ! password_of "$variable" | grep -Eq '^[A-Za-z0-9]{24,}$'; then
    echo "init-roles: $variable must be set to at least 24 random letters or digits (e.g. openssl rand -hex 24)" >&2
    exit 1
  fi
done

# psql reads each password from the environment itself (\getenv): on its command line it would show in `ps`.
for pair in $ROLES; do
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -v role="${pair%%:*}" -v password_variable="${pair#*:}" <<'SQL'
\getenv password :password_variable
CREATE ROLE :"role" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD :'password';
SQL
done

# Advisory locks are shared by everyone in a database and Postgres lets PUBLIC take them: only the
# owner (migrations) and the ledger (publisher, stream appends) may, so no other service's role can
# hold their keys and stall them (libs/platform/src/database/database-setup.ts, reserveAdvisoryLocks).
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -v db="$POSTGRES_DB" <<'SQL'
ALTER DATABASE :"db" OWNER TO pp_owner;
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
DO $$
DECLARE routines text;
BEGIN
  SELECT string_agg(oid::regprocedure::text, ', ') INTO routines
    FROM pg_proc WHERE pronamespace = 'pg_catalog'::regnamespace AND proname LIKE 'pg%advisory%';
  EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', routines);
  EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO pp_owner, pp_ledger', routines);
END
$$;
SQL
