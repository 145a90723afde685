//! [`ThriftWrite`] and [`ThriftRead`] for the types generated code holds that are not generated:
//! numbers and `bool`, `uuid` (`[u8; 16]`), strings, references and boxes, and
//! [`ApplicationException`].

use super::traits::{ThriftRead, ThriftWrite};
use crate::application::{ApplicationException, ApplicationExceptionKind};
use crate::error::Result;
use crate::protocol::{ProtocolReader, ProtocolSize, ProtocolWriter};
use crate::wire::TType;

macro_rules! scalar {
    ($ty:ty, $read:ident, $write:ident, $len:ident) => {
        impl ThriftWrite for $ty {
            #[inline]
            fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
                w.$write(*self)
            }

            #[inline]
            fn encoded_len<P: ProtocolSize>(&self) -> usize {
                P::$len(*self)
            }
        }

        impl<'de> ThriftRead<'de> for $ty {
            #[inline]
            fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
                r.$read()
            }
        }
    };
}

scalar!(bool, read_bool, write_bool, bool_len);
scalar!(i8, read_i8, write_i8, i8_len);
scalar!(i16, read_i16, write_i16, i16_len);
scalar!(i32, read_i32, write_i32, i32_len);
scalar!(i64, read_i64, write_i64, i64_len);
scalar!(f64, read_double, write_double, double_len);

/// `uuid`.
impl ThriftWrite for [u8; 16] {
    #[inline]
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        w.write_uuid(self)
    }

    #[inline]
    fn encoded_len<P: ProtocolSize>(&self) -> usize {
        P::uuid_len(self)
    }
}

/// `uuid`.
impl<'de> ThriftRead<'de> for [u8; 16] {
    #[inline]
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
        r.read_uuid()
    }
}

impl ThriftWrite for str {
    #[inline]
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        w.write_string(self)
    }

    #[inline]
    fn encoded_len<P: ProtocolSize>(&self) -> usize {
        P::string_len(self.len())
    }
}

impl ThriftWrite for String {
    #[inline]
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        w.write_string(self)
    }

    #[inline]
    fn encoded_len<P: ProtocolSize>(&self) -> usize {
        P::string_len(self.len())
    }
}

impl<'de> ThriftRead<'de> for String {
    #[inline]
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
        r.read_string()
    }

    /// Into the old buffer.
    #[inline]
    fn read_into<R: ProtocolReader<'de>>(r: &mut R, out: &mut Self) -> Result<()> {
        r.read_string_into(out)
    }
}

/// Zero-copy `string` (slice input only).
impl<'de> ThriftRead<'de> for &'de str {
    #[inline]
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
        r.read_str()
    }
}

impl<T: ThriftWrite + ?Sized> ThriftWrite for &T {
    #[inline]
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        (**self).write(w)
    }

    #[inline]
    fn encoded_len<P: ProtocolSize>(&self) -> usize {
        (**self).encoded_len::<P>()
    }
}

/// For recursive types.
impl<T: ThriftWrite + ?Sized> ThriftWrite for Box<T> {
    #[inline]
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        (**self).write(w)
    }

    #[inline]
    fn encoded_len<P: ProtocolSize>(&self) -> usize {
        (**self).encoded_len::<P>()
    }
}

/// For recursive types.
impl<'de, T: ThriftRead<'de>> ThriftRead<'de> for Box<T> {
    #[inline]
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
        T::read(r).map(Box::new)
    }

    /// Into the boxed value (no new box).
    #[inline]
    fn read_into<R: ProtocolReader<'de>>(r: &mut R, out: &mut Self) -> Result<()> {
        T::read_into(r, out)
    }
}

// The struct a `TApplicationException` is on the wire (`thrift-rpc.md`, "Response struct"):
// `message` (1, a string) and `type` (2, an `i32`).

impl ThriftWrite for ApplicationException {
    fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        let t = w.write_struct_begin()?;
        w.write_field_begin(TType::String, 1)?;
        w.write_string(&self.message)?;
        w.write_field_end()?;
        w.write_field_begin(TType::I32, 2)?;
        w.write_i32(self.kind.0)?;
        w.write_field_end()?;
        w.write_field_stop()?;
        w.write_struct_end(t)
    }

    fn encoded_len<P: ProtocolSize>(&self) -> usize {
        P::struct_begin_len()
            + P::field_begin_len(TType::String, 1, 0)
            + P::string_len(self.message.len())
            + P::field_begin_len(TType::I32, 2, 1)
            + P::i32_len(self.kind.0)
            + P::field_stop_len()
            + P::struct_end_len()
    }
}

impl<'de> ThriftRead<'de> for ApplicationException {
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
        let t = r.read_struct_begin()?;
        let mut e = ApplicationException::default();
        loop {
            let f = r.read_field_begin()?;
            match (f.id, f.ttype) {
                (_, TType::Stop) => break,
                (1, TType::String) => e.message = r.read_string()?,
                (2, TType::I32) => e.kind = ApplicationExceptionKind(r.read_i32()?),
                (_, ttype) => r.skip(ttype)?,
            }
            r.read_field_end()?;
        }
        r.read_struct_end(t)?;
        Ok(e)
    }
}
