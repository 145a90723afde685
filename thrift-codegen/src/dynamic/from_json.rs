//! JSON to values to write, checked against the IDL.

use serde_json::Value as Json;
use thrift_idl_parser::ast::BaseType;
use thrift_runtime::OrderedF64;
use thrift_runtime::unknown::Value;

use super::convert::Convert;
use super::error::{Error, at, error};
use super::json_scalars::{bytes_from_json, double_from_text};
use super::schema::{Resolved, StructSpec, Ty};

impl<'p> Convert<'p> {
    pub(super) fn struct_from_json(
        &self,
        spec: &StructSpec<'p>,
        json: &Json,
    ) -> Result<Value, Error> {
        let Json::Object(object) = json else {
            return Err(error(format!("`{}` is a JSON object", spec.name)));
        };
        for key in object.keys() {
            if !key.starts_with('#') && !spec.fields.iter().any(|f| f.name == key) {
                return Err(error(format!("`{}` has no field `{key}`", spec.name)));
            }
        }
        let mut fields = Vec::new();
        for field in &spec.fields {
            match object.get(field.name) {
                Some(value) => {
                    let value = self
                        .value_from_json(field.ty, value)
                        .map_err(at(format_args!(".{}", field.name)))?;
                    fields.push((field.id, value));
                }
                None if field.required => {
                    return Err(error(format!(
                        "`{}` requires the field `{}`",
                        spec.name, field.name
                    )));
                }
                None => {}
            }
        }
        if spec.union && fields.len() != 1 {
            return Err(error(format!(
                "the union `{}` has exactly one field set, not {}",
                spec.name,
                fields.len()
            )));
        }
        Ok(Value::Struct(fields))
    }

    pub(super) fn value_from_json(&self, ty: Ty<'p>, json: &Json) -> Result<Value, Error> {
        let expected = || {
            error(format!(
                "expected {}, found {}",
                self.describe(ty),
                kind_of(json)
            ))
        };
        let int = |min: i64, max: i64| -> Result<i64, Error> {
            json.as_i64()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| error(format!("expected {}, found {json}", self.describe(ty))))
        };
        Ok(match self.resolve(ty)? {
            Resolved::Base(BaseType::Bool) => Value::Bool(json.as_bool().ok_or_else(expected)?),
            Resolved::Base(BaseType::I8) => Value::I8(int(i8::MIN.into(), i8::MAX.into())? as i8),
            Resolved::Base(BaseType::I16) => {
                Value::I16(int(i16::MIN.into(), i16::MAX.into())? as i16)
            }
            Resolved::Base(BaseType::I32) => {
                Value::I32(int(i32::MIN.into(), i32::MAX.into())? as i32)
            }
            Resolved::Base(BaseType::I64) => Value::I64(int(i64::MIN, i64::MAX)?),
            Resolved::Base(BaseType::Double) => Value::Double(OrderedF64(match json {
                Json::Number(n) => n.as_f64().ok_or_else(expected)?,
                Json::String(s) => double_from_text(s).ok_or_else(expected)?,
                _ => return Err(expected()),
            })),
            Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum => {
                Value::Binary(json.as_str().ok_or_else(expected)?.as_bytes().to_vec())
            }
            Resolved::Base(BaseType::Binary) => {
                let bytes = bytes_from_json(json).ok_or_else(expected)?;
                Value::Binary(if self.base64 {
                    thrift_runtime::json_binary_to_text(&bytes)
                } else {
                    bytes
                })
            }
            Resolved::Base(BaseType::Uuid) => {
                let bytes = bytes_from_json(json).ok_or_else(expected)?;
                Value::Uuid(bytes.try_into().map_err(|_| error("a uuid is 16 bytes"))?)
            }
            Resolved::Enum(e) => Value::I32(match json {
                Json::String(name) => e
                    .values
                    .iter()
                    .find(|v| v.name.name == *name)
                    .map(|v| v.value)
                    .ok_or_else(|| error(format!("`{}` has no value `{name}`", e.name.name)))?,
                _ => int(i32::MIN.into(), i32::MAX.into())? as i32,
            }),
            Resolved::Struct(id) => {
                self.struct_from_json(&StructSpec::of(self.program, id), json)?
            }
            Resolved::List(e) | Resolved::Set(e) => {
                let items = json.as_array().ok_or_else(expected)?;
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    out.push(
                        self.value_from_json(e, item)
                            .map_err(at(format_args!("[{i}]")))?,
                    );
                }
                let elem = self.ttype(e)?;
                if matches!(self.resolve(ty)?, Resolved::List(_)) {
                    Value::List(elem, out)
                } else {
                    Value::Set(elem, out)
                }
            }
            Resolved::Map(k, v) => {
                let mut entries = Vec::new();
                match json {
                    Json::Object(object) => {
                        for (key, value) in object {
                            let key_value = self
                                .key_from_text(k, key)
                                .map_err(at(format_args!("[{key:?}]")))?;
                            let value = self
                                .value_from_json(v, value)
                                .map_err(at(format_args!("[{key:?}]")))?;
                            entries.push((key_value, value));
                        }
                    }
                    Json::Array(pairs) => {
                        for (i, pair) in pairs.iter().enumerate() {
                            let Some([key, value]) = pair
                                .as_array()
                                .and_then(|p| <&[Json; 2]>::try_from(p.as_slice()).ok())
                            else {
                                return Err(at(format_args!("[{i}]"))(error(
                                    "a map entry is a `[key, value]` pair",
                                )));
                            };
                            entries.push((
                                self.value_from_json(k, key)
                                    .map_err(at(format_args!("[{i}][0]")))?,
                                self.value_from_json(v, value)
                                    .map_err(at(format_args!("[{i}][1]")))?,
                            ));
                        }
                    }
                    _ => return Err(expected()),
                }
                Value::Map(self.ttype(k)?, self.ttype(v)?, entries)
            }
        })
    }

    /// A map key written as an object key: the text of a string, a number, a bool or an enum.
    fn key_from_text(&self, ty: Ty<'p>, key: &str) -> Result<Value, Error> {
        match self.resolve(ty)? {
            Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum => {
                Ok(Value::Binary(key.as_bytes().to_vec()))
            }
            Resolved::Enum(_) if key.parse::<i32>().is_err() => {
                self.value_from_json(ty, &Json::String(key.to_string()))
            }
            _ => {
                let parsed: Json = serde_json::from_str(key)
                    .map_err(|_| error(format!("the key `{key}` is not {}", self.describe(ty))))?;
                self.value_from_json(ty, &parsed)
            }
        }
    }
}

fn kind_of(json: &Json) -> &'static str {
    match json {
        Json::Null => "null",
        Json::Bool(_) => "a bool",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}
