#!/bin/sh
# `headway <command>` inside the image: the CLI jar on the image's JRE.
# -XX:+ExitOnOutOfMemoryError: out of heap, the JVM exits and `restart: unless-stopped` starts it
# again, instead of a process whose threads died that answers nothing (bin/headway says the same).
exec java -XX:+ExitOnOutOfMemoryError ${HEADWAY_JAVA_OPTS:-} -jar /app/headway.jar "$@"
