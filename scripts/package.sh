#!/usr/bin/env bash
# Packages the three published crates as `cargo publish` would (each package built from its
# .crate file alone, the others through a local overlay, in dependency order) and prints what
# each holds and its size. Then builds and runs a user's crate (build.rs with the Builder, a
# service served and called over TCP) against the unpacked .crate files, not the workspace:
# what crates.io users would get. `cargo publish --dry-run` runs too; nothing is uploaded.
# ALLOW_DIRTY=1 packages uncommitted changes too.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
CRATES=(thrift-idl-parser thrift-runtime thrift-codegen)
VERSION="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)"
# Cargo verifies each package against the others through a local registry overlay. It takes a
# registry package of a given name and version to be immutable: it unpacks it once under
# $CARGO_HOME/registry/src/-<hash>/ and compiles it once into the target directory. A copy left
# by an earlier run would stand for today's package, its new APIs missing. Drop both: the
# unpacked overlay copies (crates.io's index.* directories are left alone) and the build of any
# of our crates whose sources were such a copy (its dep-info names the path).
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
for crate in "${CRATES[@]}"; do
    rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/"$crate-$VERSION"
    for info in "$TARGET_DIR"/debug/deps/"${crate//-/_}"-*.d; do
        [[ -e "$info" ]] && grep -q 'registry/src/-' "$info" || continue
        hash="${info##*-}"
        rm -rf "$TARGET_DIR/debug/.fingerprint/$crate-${hash%.d}"
    done
done
cargo package --locked --quiet ${ALLOW_DIRTY:+--allow-dirty} "${CRATES[@]/#/-p}"
UNPACKED="$ROOT/target/package/unpacked"
rm -rf "$UNPACKED"
mkdir -p "$UNPACKED"
for crate in "${CRATES[@]}"; do
    file="target/package/$crate-$VERSION.crate"
    echo "package: $file: $(du -k "$file" | cut -f1) KiB compressed, $(tar -tzf "$file" | wc -l) files"
    tar -xzf "$file" -C "$UNPACKED"
done
# What `cargo publish` checks beyond `cargo package` (the packages were just verified).
cargo publish --dry-run --no-verify --locked --quiet ${ALLOW_DIRTY:+--allow-dirty} "${CRATES[@]/#/-p}" 2>&1 |
    { grep -v 'aborting upload due to dry run' || true; }

# A user's crate, outside the workspace, depending on the packaged crates only. The packaged
# thrift-codegen names thrift-idl-parser as a registry dependency (as on crates.io); the patch
# points it at the unpacked package until it is published.
USER_CRATE="$ROOT/target/packaged-user"
rm -rf "$USER_CRATE"
mkdir -p "$USER_CRATE/src" "$USER_CRATE/idl"
cat > "$USER_CRATE/Cargo.toml" <<EOF
[package]
name = "packaged-user"
version = "0.1.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
thrift-runtime = { path = "$UNPACKED/thrift-runtime-$VERSION", features = ["blocking"] }

[build-dependencies]
thrift-codegen = { path = "$UNPACKED/thrift-codegen-$VERSION" }

[patch.crates-io]
thrift-idl-parser = { path = "$UNPACKED/thrift-idl-parser-$VERSION" }
EOF
# The workspace's lock file, so that no dependency is resolved anew (cargo drops what the
# user's crate does not use).
cp Cargo.lock "$USER_CRATE/Cargo.lock"
cat > "$USER_CRATE/idl/notes.thrift" <<'EOF'
namespace rs notes

struct Note {
  1: required string text
  2: optional i32 stars
  3: list<string> tags
}

exception Empty {
  1: string why
}

service Notes {
  Note shout(1: Note note) throws (1: Empty empty)
}
EOF
cat > "$USER_CRATE/build.rs" <<'EOF'
fn main() -> Result<(), Box<dyn std::error::Error>> {
    thrift_codegen::Builder::new().compile(["idl/notes.thrift"])?;
    Ok(())
}
EOF
cat > "$USER_CRATE/src/main.rs" <<'EOF'
mod idl {
    include!(concat!(env!("OUT_DIR"), "/thrift.rs"));
}

use idl::notes::{Empty, Note, Notes, NotesClient, NotesProcessor, NotesShoutError};
use thrift_runtime::rpc::blocking::{Connection, Server};
use thrift_runtime::rpc::{ClientOptions, ProtocolKind, ServerOptions, Framing};
use thrift_runtime::{Compact, ThriftRead, ThriftWrite};

struct Loud;

impl Notes for Loud {
    fn shout(&self, note: Note) -> Result<Note, NotesShoutError> {
        if note.text.is_empty() {
            return Err(Empty { why: "nothing to shout".into() }.into());
        }
        Ok(Note { text: note.text.to_uppercase(), ..note })
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let note = Note { text: "hello".into(), stars: Some(3), tags: vec!["a".into()] };
    let bytes = note.encode_to_vec::<Compact>()?;
    assert_eq!(Note::decode::<Compact>(&bytes)?, note);

    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let handle = Server::new(ServerOptions::default()).spawn(listener, NotesProcessor::new(Loud))?;
    let options = ClientOptions::new(ProtocolKind::Compact).with_framing(Framing::Framed);
    let mut client = NotesClient::new(Connection::connect(handle.local_addr(), options)?);
    let loud = client.shout(note.clone())?;
    assert_eq!(loud.text, "HELLO");
    assert_eq!(loud.stars, Some(3));
    match client.shout(Note { text: String::new(), ..note }) {
        Err(NotesShoutError::Empty(e)) => assert_eq!(e.why, "nothing to shout"),
        other => panic!("expected the declared exception, got {other:?}"),
    }
    println!("packaged crates: a build.rs user's service round trip works");
    Ok(())
}
EOF
# Its own target directory (the workspace's would rebuild on every switch), shared with the
# first-hour tests' user crates, which compile the same dependencies.
CARGO_TARGET_DIR="$ROOT/target/first-hour/target" \
    cargo run --quiet --manifest-path "$USER_CRATE/Cargo.toml"
