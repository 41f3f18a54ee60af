#!/usr/bin/env bash
# Stages the controller jar for starts on the host as the image holds it: extracted (a thin jar
# + lib/, which the JVM opens faster than a nested fat jar) and an AppCDS archive of a training
# start up to Spring's refresh (no web server, no cluster calls), app.jsa; app-aot.jsa too,
# trained with Spring AOT, when the jar holds AOT's bean definitions. An archive is valid for
# this JRE and these extracted files only, which is why both are made together.
# Usage: stage.sh <jar> <dir> [--no-aot]   (dir is replaced; --no-aot: app.jsa only)
set -euo pipefail
jar=$1 dir=$2 aot=${3:-}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rm -rf "$dir"
java -Djarmode=tools -jar "$jar" extract --application-filename isolato-controller.jar --destination "$dir" >/dev/null
# As controller/image/Containerfile does: the JVM's default options, the archive then used
# under whatever options a start adds.
train() { # NAME [OPTS]
  local name=$1; shift
  java "$@" -XX:ArchiveClassesAtExit="$dir/$name.jsa" -Dspring.context.exit=onRefresh \
    -Dlogging.level.root=warn -jar "$dir/isolato-controller.jar" >"$log" 2>&1 \
    || { cat "$log" >&2; echo "[controller-host] training run $name failed" >&2; exit 1; }
}
train app
# not `unzip | grep -q` under pipefail: grep's early exit fails unzip (SIGPIPE)
unzip -l "$jar" >"$log"
if [ "$aot" != --no-aot ] && grep -q '__BeanDefinitions' "$log"; then
  train app-aot -Dspring.aot.enabled=true
fi
