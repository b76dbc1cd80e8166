#!/bin/sh
# The one-shot `starter` service of docker/compose.yaml. Every step is idempotent, so it runs on
# every `docker compose up`:
#   1. register headway's search attributes in the Temporal namespace
#   2. add the groups of HEADWAY_GROUPS (comma- or space-separated); this also migrates the database
#   3. install the Temporal Schedules (planner, watchman, registry prune)
#   4. start every active group's workflow (a running one is left alone)
# The planner schedule plans the groups from the news server's marks within a minute.
set -eu
groups=$(echo "${HEADWAY_GROUPS:-}" | tr ',' ' ')
if [ -z "$(echo "$groups" | tr -d ' ')" ]; then
    echo "bootstrap: HEADWAY_GROUPS is empty: set it to the newsgroups to index, e.g. alt.binaries.example" >&2
    exit 2
fi
headway search-attributes
# shellcheck disable=SC2086 # the group names are meant to split
headway groups add $groups
headway schedules install
headway start --all
echo "bootstrap: done; watch the groups at http://localhost:${HEADWAY_UI_PORT:-8080} or with: docker compose exec worker headway status"
