#!/usr/bin/env bash
# Installs what the tests and benchmarks need besides Rust: Apache Thrift's compiler (Debian's
# thrift-compiler), Python's thrift package (with thrift-sasl and pure-sasl), Apache's Java and
# C++ libraries (interop/java/setup.sh, interop/cpp/setup.sh), the trusted peers for interop
# checks, openssl for the TLS cells' certificates, and mdBook for the guide.
# Idempotent: installs only what is missing.
#
# The Python package goes into a virtual environment of its own, target/pyenv in the checkout
# (Debian's system Python refuses `pip install`: externally-managed-environment). Scripts that
# run Apache's Python library use target/pyenv/bin/python.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYENV="$ROOT/target/pyenv"

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "setup: need root to run: $*" >&2; return 1
    fi
}

apt_install() {
    as_root apt-get update -qq >/dev/null || true
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}

if ! command -v thrift >/dev/null 2>&1; then
    echo "setup: installing thrift-compiler (Apache Thrift's compiler)" >&2
    apt_install thrift-compiler
fi

# The TLS interop cells make their certificates with openssl (interop/tls_certs.sh).
if ! command -v openssl >/dev/null 2>&1; then
    echo "setup: installing openssl (certificates of the TLS interop cells)" >&2
    apt_install openssl
fi

if ! "$PYENV/bin/python" -c 'import thrift, thrift_sasl, puresasl' >/dev/null 2>&1; then
    if ! "$PYENV/bin/python" -m pip --version >/dev/null 2>&1; then
        echo "setup: creating the Python virtual environment $PYENV" >&2
        # Debian ships venv's pip bootstrap (ensurepip) separately, in python3-venv.
        if ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
            apt_install python3-venv
        fi
        python3 -m venv --clear "$PYENV"
    fi
    # thrift-sasl and pure-sasl: the SASL PLAIN client of the SASL interop cells.
    echo "setup: installing the Python thrift, thrift-sasl and pure-sasl packages into $PYENV" >&2
    "$PYENV/bin/python" -m pip install --quiet --disable-pip-version-check thrift thrift-sasl pure-sasl
fi

# Apache's Java and C++ libraries, the interop matrix's other peers (Debian's libthrift-java
# with a JDK, libthrift-dev with g++): their own scripts, also run by their build.sh.
"$ROOT/interop/java/setup.sh"
"$ROOT/interop/cpp/setup.sh"

# mdBook, which renders the guide (docs/), from crates.io into target/tools (one version, built
# once per checkout).
MDBOOK_VERSION=0.5.4
if ! "$ROOT/target/tools/bin/mdbook" --version 2>/dev/null | grep -q "v$MDBOOK_VERSION"; then
    echo "setup: installing mdbook $MDBOOK_VERSION into target/tools" >&2
    cargo install --quiet --locked mdbook --version "$MDBOOK_VERSION" --root "$ROOT/target/tools"
fi

thrift --version >&2
echo "python thrift $("$PYENV/bin/python" -c 'import importlib.metadata as m; print(m.version("thrift"))') ($PYENV)" >&2
