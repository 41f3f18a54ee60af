#!/usr/bin/env bash
# Stages the controller image's build context and prints its directory:
#   rootfs/opt/java     a jlink JRE of the modules in ./modules (+ the JDK's CDS archive)
#   rootfs/lib*, /etc   only the shared libraries that JRE links (ldd), a passwd entry for
#                       uid 65532, an empty /tmp
#   app/                the Spring Boot jar extracted (jarmode=tools): a thin jar + lib/,
#                       the layout class-data sharing needs
#   Containerfile
# Usage: stage.sh <isolato-controller.jar> <context dir>
# The JRE is cached next to the context (keyed by the JDK and the module list): jlink takes
# ~25 s, so rebuilding the image after a code change costs only the extract and the CDS run.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
jar=$(readlink -f "$1")
ctx=$2
JDK=${ISOLATO_IMAGE_JDK:-/usr/lib/jvm/java-17-openjdk-amd64}
die() { echo "controller/image: $*" >&2; exit 1; }
[ -f "$jar" ] || die "$jar is missing; run 'make controller-build'"
[ -x "$JDK/bin/jlink" ] || die "no JDK at $JDK (jlink missing); install openjdk-17-jdk-headless"

modules=$(grep -v '^#' "$HERE/modules" | grep . | paste -sd, -)
# GUI and sound libraries of java.desktop: the controller is headless (it needs java.desktop
# only for java.beans), and these would pull in X11, freetype, ALSA and friends.
HEADLESS_DROP="libawt_xawt.so libsplashscreen.so libjawt.so libjsound.so libfontmanager.so liblcms.so libjavajpeg.so"

cache=$(dirname "$ctx")/controller-jre-$( { "$JDK/bin/java" -version 2>&1; echo "$modules"; } | sha256sum | cut -c1-12)
if [ ! -x "$cache/bin/java" ]; then
  # jdeps over the jar's dependencies: every module the code needs must be in the list.
  work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
  (cd "$work" && unzip -q "$jar")
  need=$("$JDK/bin/jdeps" --ignore-missing-deps --print-module-deps --multi-release 17 --recursive \
    --class-path "$work/BOOT-INF/lib/*" "$work/BOOT-INF/classes" 2>/dev/null | tail -1)
  missing=$(comm -23 <(tr , '\n' <<< "$need" | sort) <(tr , '\n' <<< "$modules" | sort))
  [ -z "$missing" ] || die "jdeps says the jar needs modules not in $HERE/modules: $missing"
  rm -rf "$cache.tmp"
  "$JDK/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
    --generate-cds-archive --output "$cache.tmp" >/dev/null
  for l in $HEADLESS_DROP; do rm -f "$cache.tmp/lib/$l"; done
  rm -rf "$cache.tmp/legal" "$cache.tmp/bin/jfr" "$cache.tmp/bin/jrunscript" "$cache.tmp/bin/rmiregistry"
  mv "$cache.tmp" "$cache"
fi

rm -rf "$ctx"
mkdir -p "$ctx/rootfs/opt" "$ctx/rootfs/etc" "$ctx/rootfs/tmp" "$ctx/app"
chmod 1777 "$ctx/rootfs/tmp"
cp -a "$cache" "$ctx/rootfs/opt/java"
# Debian's JDK links some files to /etc (cacerts, tzdb.dat, ...): copy the targets in.
find "$ctx/rootfs/opt/java" -type l | while read -r l; do cp --remove-destination -L "$(readlink -f "$l")" "$l"; done

# Every shared library the JRE's binaries link, at the path the dynamic linker finds it
# (libjvm.so is "not found" for the JDK's own libraries: the launcher has loaded it already).
deps=$(find "$ctx/rootfs/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' \) -exec ldd {} + 2>/dev/null)
missing=$(grep 'not found' <<< "$deps" | grep -v 'libjvm.so' | sort -u || true)
[ -z "$missing" ] || die "unresolved libraries: $missing"
awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\/lib64\// {print $1}' <<< "$deps" | sort -u | while read -r lib; do
  mkdir -p "$ctx/rootfs$(dirname "$lib")"
  cp -L "$lib" "$ctx/rootfs$lib"
done

printf 'root:x:0:0:root:/:/sbin/nologin\nnonroot:x:65532:65532:isolato:/tmp:/sbin/nologin\n' > "$ctx/rootfs/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' > "$ctx/rootfs/etc/group"

"$JDK/bin/java" -Djarmode=tools -jar "$jar" extract --destination "$ctx/app" >/dev/null
install -m 0644 "$HERE/Containerfile" "$ctx/Containerfile"
echo "$ctx"
