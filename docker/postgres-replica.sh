#!/bin/sh
# The entrypoint of `postgres-replica` (profile `replica`): on an empty volume, a base backup of
# `postgres` with pg_basebackup over a physical replication slot (made here, so the primary keeps
# the WAL the standby still needs; an old slot of the same name, left by a volume that was
# removed, is dropped first), written with -R so the server starts as a hot standby streaming
# from it; then the server itself. headway's `serve` reads from it with
# HEADWAY_DB_READ_URL=jdbc:postgresql://postgres-replica:5432/headway.
set -eu
: "${PGPASSWORD:?set POSTGRES_PASSWORD}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    psql -h postgres -U postgres -d postgres -v ON_ERROR_STOP=1 -c \
        "select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = 'headway_replica'"
    pg_basebackup -h postgres -U postgres -D "$PGDATA" -R -X stream -C -S headway_replica --checkpoint=fast --no-password
fi
chmod 0700 "$PGDATA"
exec postgres -c hot_standby=on
