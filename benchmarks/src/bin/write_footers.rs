//! Writes the Parquet files whose footers the `parquet-crate-*` scenarios decode, with the
//! `parquet` crate itself and its default `WriterProperties` (page-level statistics, size
//! statistics with level histograms, column and offset indexes): the footers users of that
//! crate meet. `benchmarks/setup.sh` runs it after the pyarrow files.
//!
//! ```text
//! cargo run --release --manifest-path benchmarks/Cargo.toml --bin write_footers -- DIR
//! ```
//! - `crate-doubles.parquet`: 100 `double` columns x 20 row groups;
//! - `crate-mixed.parquet`: 1000 columns (int64, double, utf8, bool in turn) x 10 row groups.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Int64,
    Double,
    Utf8,
    Bool,
}

fn write(
    path: &Path,
    kinds: &[Kind],
    row_groups: usize,
    rows: usize,
) -> parquet::errors::Result<()> {
    let fields: Vec<String> = kinds
        .iter()
        .enumerate()
        .map(|(i, kind)| match kind {
            Kind::Int64 => format!("required int64 c{i};"),
            Kind::Double => format!("required double c{i};"),
            Kind::Utf8 => format!("required binary c{i} (UTF8);"),
            Kind::Bool => format!("required boolean c{i};"),
        })
        .collect();
    let schema = Arc::new(parse_message_type(&format!(
        "message schema {{ {} }}",
        fields.join(" ")
    ))?);
    let props = Arc::new(WriterProperties::builder().build());
    let mut writer = SerializedFileWriter::new(File::create(path)?, schema, props)?;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..row_groups {
        let mut group = writer.next_row_group()?;
        let mut index = 0;
        while let Some(mut column) = group.next_column()? {
            match (kinds[index], column.untyped()) {
                (Kind::Int64, ColumnWriter::Int64ColumnWriter(w)) => {
                    let values: Vec<i64> = (0..rows).map(|_| (rng.next() >> 24) as i64).collect();
                    w.write_batch(&values, None, None)?;
                }
                (Kind::Double, ColumnWriter::DoubleColumnWriter(w)) => {
                    let values: Vec<f64> = (0..rows)
                        .map(|_| (rng.next() >> 11) as f64 / (1u64 << 53) as f64)
                        .collect();
                    w.write_batch(&values, None, None)?;
                }
                (Kind::Utf8, ColumnWriter::ByteArrayColumnWriter(w)) => {
                    let values: Vec<ByteArray> = (0..rows)
                        .map(|_| ByteArray::from(format!("s{}", rng.next() % 5000).as_str()))
                        .collect();
                    w.write_batch(&values, None, None)?;
                }
                (Kind::Bool, ColumnWriter::BoolColumnWriter(w)) => {
                    let values: Vec<bool> = (0..rows).map(|_| rng.next() & 1 == 1).collect();
                    w.write_batch(&values, None, None)?;
                }
                _ => unreachable!("the schema gives each column its kind"),
            }
            column.close()?;
            index += 1;
        }
        group.close()?;
    }
    let metadata = writer.close()?;
    eprintln!(
        "{}: {} rows, {} row groups, {} columns",
        path.display(),
        metadata.file_metadata().num_rows(),
        metadata.num_row_groups(),
        kinds.len()
    );
    Ok(())
}

fn main() -> parquet::errors::Result<()> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "benchmarks/data".into());
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir)?;
    write(
        &dir.join("crate-doubles.parquet"),
        &[Kind::Double; 100],
        20,
        1000,
    )?;
    let mixed: Vec<Kind> = (0..1000)
        .map(|i| [Kind::Int64, Kind::Double, Kind::Utf8, Kind::Bool][i % 4])
        .collect();
    write(&dir.join("crate-mixed.parquet"), &mixed, 10, 200)?;
    Ok(())
}
