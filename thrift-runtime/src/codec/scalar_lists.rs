//! Reading lists and sets of numbers ([`Scalar`]) many elements at a time
//! ([`read_scalar_list`], [`read_scalar_set`], [`read_scalar_list_into`]).

use super::lists::{ListItems, NewItems, capacity_hint};
use crate::error::Result;
use crate::protocol::ProtocolReader;
use crate::wire::TType;

/// Numbers that lists and sets hold and that readers read many at a time
/// ([`ProtocolReader::read_i64_elements`] and the like): `i8`, `i16`, `i32`, `i64`, `f64`.
pub trait Scalar: Copy + Default {
    /// The element type on the wire.
    const TTYPE: TType;
    /// Reads one element.
    fn read_one<'de, R: ProtocolReader<'de>>(r: &mut R) -> Result<Self>;
    /// Reads `out.len()` elements into `out`; the provided method reads them one at a time.
    #[inline(always)]
    fn read_elements<'de, R: ProtocolReader<'de>>(r: &mut R, out: &mut [Self]) -> Result<()> {
        for item in out {
            *item = Self::read_one(r)?;
        }
        Ok(())
    }
}

macro_rules! scalar_elements {
    ($ty:ty, $ttype:ident, $read:ident $(, $read_all:ident)?) => {
        impl Scalar for $ty {
            const TTYPE: TType = TType::$ttype;

            #[inline(always)]
            fn read_one<'de, R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
                r.$read()
            }

            $(
                #[inline(always)]
                fn read_elements<'de, R: ProtocolReader<'de>>(
                    r: &mut R,
                    out: &mut [Self],
                ) -> Result<()> {
                    r.$read_all(out)
                }
            )?
        }
    };
}

scalar_elements!(i8, I8, read_i8);
scalar_elements!(i16, I16, read_i16);
scalar_elements!(i32, I32, read_i32, read_i32_elements);
scalar_elements!(i64, I64, read_i64, read_i64_elements);
scalar_elements!(f64, Double, read_double, read_double_elements);

/// Lists shorter than this are read one element at a time: for one to three numbers (a Parquet
/// column's level histograms) the batch's set-up costs more than it saves (`parquet-wide`,
/// 2,256 such lists per footer: +5% instructions read in batches).
const SCALAR_BATCH_MIN: usize = 4;

/// Reads `len` elements of `T` onto the end of `items`, many at a time: the vector grows by at
/// most a [`capacity_hint`] before each batch is read, so that a hostile count (already
/// checked against the input left, one byte per element) cannot force a large allocation.
#[inline(always)]
pub(crate) fn read_scalars<'de, T, C, R>(r: &mut R, len: usize, items: &mut C) -> Result<()>
where
    T: Scalar,
    C: ListItems<T>,
    R: ProtocolReader<'de>,
{
    if len < SCALAR_BATCH_MIN {
        for _ in 0..len {
            items.push(T::read_one(r)?);
        }
        return Ok(());
    }
    let mut left = len;
    while left > 0 {
        let n = capacity_hint::<T>(left);
        T::read_elements(r, items.extend_default(n))?;
        left -= n;
    }
    Ok(())
}

/// [`read_list`](super::read_list) for a list of numbers ([`Scalar`]), into a `Vec` or a
/// [`SmallVec`](smallvec::SmallVec) (`C`): the elements are read many at a time
/// ([`ProtocolReader::read_i64_elements`] and the like) instead of pushed one by one. Generated
/// code calls it for lists of `byte`, `i16`, `i32`, `i64` and `double`.
#[inline(always)]
pub fn read_scalar_list<'de, C, T, R>(r: &mut R) -> Result<C>
where
    C: NewItems<T>,
    T: Scalar,
    R: ProtocolReader<'de>,
{
    let header = r.read_list_begin()?;
    let items = read_new_scalars(r, header)?;
    r.read_list_end()?;
    Ok(items)
}

/// [`read_scalar_list`] for a set (the borrowing forms hold sets as vectors).
#[inline(always)]
pub fn read_scalar_set<'de, C, T, R>(r: &mut R) -> Result<C>
where
    C: NewItems<T>,
    T: Scalar,
    R: ProtocolReader<'de>,
{
    let header = r.read_set_begin()?;
    let items = read_new_scalars(r, header)?;
    r.read_set_end()?;
    Ok(items)
}

/// The elements of a list or set of numbers whose `header` was just read, into a new vector:
/// the body [`read_scalar_list`] and [`read_scalar_set`] share.
#[inline(always)]
fn read_new_scalars<'de, C, T, R>(r: &mut R, header: crate::wire::ListHeader) -> Result<C>
where
    C: NewItems<T>,
    T: Scalar,
    R: ProtocolReader<'de>,
{
    crate::protocol::check_element_type(header.elem, T::TTYPE, header.len)?;
    let mut items = C::with_capacity(capacity_hint::<T>(header.len));
    read_scalars(r, header.len, &mut items)?;
    Ok(items)
}

/// [`read_scalar_list`] into the vector `items` where it lives, replacing its elements and
/// keeping its capacity (a field of a value read in place,
/// [`ThriftRead::read_into`](super::ThriftRead::read_into)).
#[inline(always)]
pub fn read_scalar_list_into<'de, C, T, R>(r: &mut R, items: &mut C) -> Result<()>
where
    C: ListItems<T>,
    T: Scalar,
    R: ProtocolReader<'de>,
{
    let header = r.read_list_begin()?;
    crate::protocol::check_element_type(header.elem, T::TTYPE, header.len)?;
    items.refill(capacity_hint::<T>(header.len));
    read_scalars(r, header.len, items)?;
    r.read_list_end()
}
