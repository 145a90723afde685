#!/usr/bin/env bash
# Installs what the Java ThriftTest peer needs, from Debian's packages only: a JDK (javac) and
# Apache Thrift's Java library (libthrift-java, with the jars it depends on: slf4j,
# httpclient/httpcore, servlet-api, commons-lang3, geronimo annotation). Apache's compiler
# (thrift-compiler) is scripts/setup.sh's. Idempotent: installs only what is missing.
set -euo pipefail

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "interop/java/setup: need root to run: $*" >&2; return 1
    fi
}

missing=()
command -v javac >/dev/null 2>&1 || missing+=(default-jdk-headless)
command -v thrift >/dev/null 2>&1 || missing+=(thrift-compiler)
for pkg in libthrift-java libslf4j-java libhttpclient-java libhttpcore-java libservlet-api-java \
    libcommons-logging-java libcommons-codec-java \
    libcommons-lang3-java libgeronimo-annotation-1.3-spec-java; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "interop/java/setup: installing ${missing[*]}" >&2
    as_root apt-get update -qq >/dev/null || true
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
        "${missing[@]}" >/dev/null
fi
