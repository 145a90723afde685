#!/usr/bin/env bash
# Installs what the tests and benchmarks need besides Rust: Apache Thrift's compiler (Debian's
# thrift-compiler) and Python's thrift package, the trusted peers for interop checks.
# Idempotent: installs only what is missing.
set -euo pipefail

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "setup: need root to run: $*" >&2; return 1
    fi
}

if ! command -v thrift >/dev/null 2>&1; then
    echo "setup: installing thrift-compiler (Apache Thrift's compiler)" >&2
    as_root apt-get update -qq >/dev/null || true
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq thrift-compiler >/dev/null
fi

if ! python3 -c 'import thrift' >/dev/null 2>&1; then
    echo "setup: installing the Python thrift package" >&2
    python3 -m pip install --quiet --disable-pip-version-check thrift
fi

thrift --version >&2
