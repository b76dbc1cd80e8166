#!/bin/sh
# Runs once, when the postgres service's data volume is new: lets the superuser `postgres` open
# replication connections from the compose network (with its password, scram-sha-256), which is
# all `postgres-replica` (profile `replica`) needs to take its base backup and stream. The image's
# own pg_hba.conf line `host all all all` does not cover replication connections. On a volume made
# before this script, append the line by hand and reload (docker/README.md).
set -eu
echo "host replication postgres all scram-sha-256" >> "$PGDATA/pg_hba.conf"
