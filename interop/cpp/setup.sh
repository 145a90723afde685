#!/usr/bin/env bash
# Installs what the C++ ThriftTest peer needs, from Debian's packages: Apache Thrift's C++
# library (libthrift-dev, 0.17, with libthriftz for THeader's zlib transform), the headers
# it includes (Boost, OpenSSL, zlib), pkg-config, g++, make, Apache's compiler and openssl.
# Idempotent: installs only what is missing (as root, or through sudo).
set -euo pipefail

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "cpp/setup: need root to run: $*" >&2; return 1
    fi
}

# Debian package -> a file that says it is installed.
PACKAGES=(
    "libthrift-dev|/usr/include/thrift/Thrift.h"
    "libboost-dev|/usr/include/boost/version.hpp"
    "libssl-dev|/usr/include/openssl/ssl.h"
    "zlib1g-dev|/usr/include/zlib.h"
    "pkg-config|/usr/bin/pkg-config"
    "g++|/usr/bin/g++"
    "make|/usr/bin/make"
    "thrift-compiler|/usr/bin/thrift"
    "openssl|/usr/bin/openssl"
)
missing=()
for entry in "${PACKAGES[@]}"; do
    IFS='|' read -r package file <<<"$entry"
    [ -e "$file" ] || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "cpp/setup: installing ${missing[*]}" >&2
    as_root apt-get update -qq -o DPkg::Lock::Timeout=600 >/dev/null || true
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
        "${missing[@]}" >/dev/null
fi
if ! pkg-config --exists thrift thrift-z; then
    echo "cpp/setup: pkg-config does not know thrift and thrift-z after installing libthrift-dev" >&2
    exit 1
fi
