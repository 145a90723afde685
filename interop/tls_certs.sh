#!/usr/bin/env bash
# Makes the certificates of the TLS interop cells with openssl, into DIR (created):
#   ca.pem                      a CA (EC P-256, self-signed, 2 days)
#   server.pem, server.key      signed by it, for localhost and 127.0.0.1 (serverAuth)
#   client.pem, client.key      signed by it, for 127.0.0.1 (clientAuth; Apache's Python
#                               server matches a client certificate against its address)
# Made fresh for every run, never checked in: no key here is anyone's secret.
set -euo pipefail
DIR="${1:?usage: tls_certs.sh DIR}"
mkdir -p "$DIR"
cd "$DIR"
quiet() { "$@" >/dev/null 2>&1 || { echo "tls_certs.sh: failed: $*" >&2; "$@"; exit 1; }; }
key() { quiet openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }

key ca.key
quiet openssl req -x509 -new -key ca.key -sha256 -days 2 -subj "/CN=thrift interop CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
    -out ca.pem

leaf() { # name subject san usage
    key "$1.key"
    quiet openssl req -new -key "$1.key" -subj "$2" -out "$1.csr"
    printf 'subjectAltName=%s\nextendedKeyUsage=%s\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n' \
        "$3" "$4" >"$1.ext"
    quiet openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -sha256 \
        -days 2 -extfile "$1.ext" -out "$1.pem"
    rm -f "$1.csr" "$1.ext"
}
leaf server "/CN=localhost" "DNS:localhost,IP:127.0.0.1" serverAuth
leaf client "/CN=thrift interop client" "IP:127.0.0.1" clientAuth
rm -f ca.key ca.srl
