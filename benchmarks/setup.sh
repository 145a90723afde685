#!/usr/bin/env bash
# Installs what the benchmarks need and writes the Parquet files whose footers are decoded.
#   - Apache's compiler (`thrift`, Debian's thrift-compiler) for the Apache contender's codegen;
#   - pyarrow, to write the Parquet files into benchmarks/data/ (gitignored).
# Idempotent: does nothing that is already done.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v thrift >/dev/null; then
    apt-get update -q && apt-get install -y -q thrift-compiler
fi
if ! python3 -c 'import pyarrow' 2>/dev/null; then
    python3 -m pip install -q pyarrow || python3 -m pip install -q --break-system-packages pyarrow
fi
mkdir -p data
python3 - <<'PY'
import os
import random

import pyarrow as pa
import pyarrow.parquet as pq

random.seed(42)
out = "data"


def write(name, table, **kw):
    path = os.path.join(out, name)
    if os.path.exists(path):
        return
    pq.write_table(table, path, **kw)
    md = pq.ParquetFile(path).metadata
    print(f"{path}: {md.num_rows} rows, {md.num_row_groups} row groups, "
          f"{md.num_columns} columns, footer {md.serialized_size} bytes")


# 1. narrow: 3 flat columns, 10 row groups.
n = 100_000
write("narrow.parquet", pa.table({
    "id": pa.array(range(n), pa.int64()),
    "name": pa.array([f"name-{i % 977}" for i in range(n)]),
    "value": pa.array([random.random() for _ in range(n)]),
}), row_group_size=10_000)

# 2. wide: 120 columns of mixed types, 8 row groups, statistics everywhere.
n = 16_000
cols = {}
for c in range(120):
    kind = c % 4
    if kind == 0:
        cols[f"i64_{c}"] = pa.array([random.randrange(1 << 40) for _ in range(n)], pa.int64())
    elif kind == 1:
        cols[f"f64_{c}"] = pa.array([random.random() for _ in range(n)])
    elif kind == 2:
        cols[f"str_{c}"] = pa.array([f"s{random.randrange(5000)}" for _ in range(n)])
    else:
        cols[f"bool_{c}"] = pa.array([random.random() < 0.5 for _ in range(n)])
write("wide.parquet", pa.table(cols), row_group_size=2_000)

# 3. nested: structs, lists, maps, dictionary-encoded strings, a page index, 4 row groups.
n = 20_000
nested = pa.table({
    "user": pa.array([{"id": i, "email": f"u{i}@example.com", "score": i * 0.5} for i in range(n)]),
    "tags": pa.array([[f"t{j}" for j in range(i % 5)] for i in range(n)], pa.list_(pa.string())),
    "attrs": pa.array([[(f"k{j}", j) for j in range(i % 3)] for i in range(n)],
                      pa.map_(pa.string(), pa.int32())),
    "country": pa.array([random.choice(["fr", "de", "us", "jp", "br"]) for _ in range(n)]).dictionary_encode(),
})
write("nested.parquet", nested, row_group_size=5_000, write_page_index=True)
PY

# The parquet crate's own footers, with its default WriterProperties (src/bin/write_footers.rs).
if [ ! -f data/crate-mixed.parquet ]; then
    cargo run --release --quiet --bin write_footers -- data
fi
