#!/bin/sh
# Runs once, when the postgres service's data volume is new (the image runs what is in
# /docker-entrypoint-initdb.d as the superuser POSTGRES_USER): the two roles the services log in
# as, each owning its own databases and neither a superuser, so that headway cannot touch
# Temporal's tables nor Temporal headway's, and neither can read the other's password or alter
# the server. headway's migrations need no more than owning its database; Temporal's auto-setup
# runs with SKIP_DB_CREATE, as its databases exist already. docker/README.md says how to add the
# roles to a volume made before this script.
set -eu
: "${HEADWAY_DB_PASSWORD:?set HEADWAY_DB_PASSWORD}"
: "${TEMPORAL_DB_PASSWORD:?set TEMPORAL_DB_PASSWORD}"
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
    -v headway_password="$HEADWAY_DB_PASSWORD" -v temporal_password="$TEMPORAL_DB_PASSWORD" <<'SQL'
create role headway login nosuperuser nocreatedb nocreaterole noreplication password :'headway_password';
create role temporal login nosuperuser nocreatedb nocreaterole noreplication password :'temporal_password';
create database headway owner headway;
create database temporal owner temporal;
create database temporal_visibility owner temporal;
revoke all on database headway from public;
revoke all on database temporal from public;
revoke all on database temporal_visibility from public;
\connect temporal_visibility
create extension if not exists btree_gin;
SQL
