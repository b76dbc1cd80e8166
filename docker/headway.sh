#!/bin/sh
# `headway <command>` inside the image: the CLI jar on the image's JRE.
exec java ${HEADWAY_JAVA_OPTS:-} -jar /app/headway.jar "$@"
