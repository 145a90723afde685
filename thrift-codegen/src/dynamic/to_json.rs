//! Values read from bytes to JSON, typed and named with the IDL.

use serde_json::{Map, Value as Json};
use thrift_idl_parser::ast::BaseType;
use thrift_runtime::TType;
use thrift_runtime::unknown::Value;

use super::convert::Convert;
use super::error::{Error, at, error};
use super::json_scalars::{bytes_to_json, double_to_json};
use super::schema::{Resolved, StructSpec, Ty};

impl<'p> Convert<'p> {
    pub(super) fn struct_to_json(
        &self,
        spec: &StructSpec<'p>,
        value: &Value,
    ) -> Result<Json, Error> {
        let Value::Struct(fields) = value else {
            return Err(error(format!("expected the struct `{}`", spec.name)));
        };
        let mut out = Map::new();
        for (id, v) in fields {
            let known = spec.fields.iter().find(|f| f.id == *id);
            match known {
                Some(field) if self.ttype(field.ty)? == v.ttype() => {
                    let json = self
                        .value_to_json(field.ty, v)
                        .map_err(at(format_args!(".{}", field.name)))?;
                    out.insert(field.name.to_string(), json);
                }
                _ => {
                    out.insert(format!("#{id}"), schemaless(v));
                }
            }
        }
        Ok(Json::Object(out))
    }

    pub(super) fn value_to_json(&self, ty: Ty<'p>, v: &Value) -> Result<Json, Error> {
        let mismatch = || {
            error(format!(
                "the wire has a {:?} where the IDL has {}",
                v.ttype(),
                self.describe(ty)
            ))
        };
        Ok(match (self.resolve(ty)?, v) {
            (Resolved::Base(BaseType::Bool), Value::Bool(b)) => Json::Bool(*b),
            (Resolved::Base(BaseType::I8), Value::I8(n)) => Json::from(*n),
            (Resolved::Base(BaseType::I16), Value::I16(n)) => Json::from(*n),
            (Resolved::Base(BaseType::I32), Value::I32(n)) => Json::from(*n),
            (Resolved::Base(BaseType::I64), Value::I64(n)) => Json::from(*n),
            (Resolved::Base(BaseType::Double), Value::Double(d)) => double_to_json(d.0),
            (
                Resolved::Base(BaseType::String | BaseType::Slist) | Resolved::Senum,
                Value::Binary(bytes),
            ) => Json::String(
                String::from_utf8(bytes.clone())
                    .map_err(|_| error("a string that is not UTF-8"))?,
            ),
            (Resolved::Base(BaseType::Binary), Value::Binary(bytes)) => {
                let bytes = if self.base64 {
                    thrift_runtime::json_binary_from_text(bytes)
                        .map_err(|e| error(e.to_string()))?
                } else {
                    bytes.clone()
                };
                bytes_to_json(&bytes)
            }
            (Resolved::Base(BaseType::Uuid), Value::Uuid(u)) => bytes_to_json(u),
            (Resolved::Enum(e), Value::I32(n)) => match e.values.iter().find(|x| x.value == *n) {
                Some(named) => Json::String(named.name.name.clone()),
                None => Json::from(*n),
            },
            (Resolved::Struct(id), Value::Struct(_)) => {
                self.struct_to_json(&StructSpec::of(self.program, id), v)?
            }
            (Resolved::List(e), Value::List(t, items))
            | (Resolved::Set(e), Value::Set(t, items)) => {
                self.check_elements(e, *t, items.len())?;
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    out.push(
                        self.value_to_json(e, item)
                            .map_err(at(format_args!("[{i}]")))?,
                    );
                }
                Json::Array(out)
            }
            (Resolved::Map(k, val), Value::Map(kt, vt, entries)) => {
                self.check_elements(k, *kt, entries.len())?;
                self.check_elements(val, *vt, entries.len())?;
                if self.object_keys(k)? {
                    let mut out = Map::new();
                    for (key, value) in entries {
                        let key_json = self.value_to_json(k, key)?;
                        let key = match key_json {
                            Json::String(s) => s,
                            other => other.to_string(),
                        };
                        let value = self
                            .value_to_json(val, value)
                            .map_err(at(format_args!("[{key:?}]")))?;
                        out.insert(key, value);
                    }
                    Json::Object(out)
                } else {
                    let mut out = Vec::with_capacity(entries.len());
                    for (i, (key, value)) in entries.iter().enumerate() {
                        let pair = vec![
                            self.value_to_json(k, key)
                                .map_err(at(format_args!("[{i}][0]")))?,
                            self.value_to_json(val, value)
                                .map_err(at(format_args!("[{i}][1]")))?,
                        ];
                        out.push(Json::Array(pair));
                    }
                    Json::Array(out)
                }
            }
            _ => return Err(mismatch()),
        })
    }

    /// A non-empty container's element type must be the IDL's.
    fn check_elements(&self, ty: Ty<'p>, wire: TType, len: usize) -> Result<(), Error> {
        let expected = self.ttype(ty)?;
        if len > 0 && wire != expected {
            return Err(error(format!(
                "the wire has {wire:?} elements where the IDL has {}",
                self.describe(ty)
            )));
        }
        Ok(())
    }

    /// Whether a map with keys of `ty` is a JSON object (string, integer, bool or enum keys).
    fn object_keys(&self, ty: Ty<'p>) -> Result<bool, Error> {
        Ok(match self.resolve(ty)? {
            Resolved::Base(b) => !matches!(b, BaseType::Binary | BaseType::Double | BaseType::Uuid),
            Resolved::Enum(_) | Resolved::Senum => true,
            _ => false,
        })
    }
}

/// A value read without a schema (a field the IDL does not declare): strings as text when
/// they are UTF-8, else byte arrays; struct fields keyed `#id`; maps as pairs.
fn schemaless(v: &Value) -> Json {
    match v {
        Value::Bool(b) => Json::Bool(*b),
        Value::I8(n) => Json::from(*n),
        Value::I16(n) => Json::from(*n),
        Value::I32(n) => Json::from(*n),
        Value::I64(n) => Json::from(*n),
        Value::Double(d) => double_to_json(d.0),
        Value::Binary(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => Json::String(text.to_string()),
            Err(_) => bytes_to_json(bytes),
        },
        Value::Uuid(u) => bytes_to_json(u),
        Value::Struct(fields) => Json::Object(
            fields
                .iter()
                .map(|(id, v)| (format!("#{id}"), schemaless(v)))
                .collect(),
        ),
        Value::List(_, items) | Value::Set(_, items) => {
            Json::Array(items.iter().map(schemaless).collect())
        }
        Value::Map(_, _, entries) => Json::Array(
            entries
                .iter()
                .map(|(k, v)| Json::Array(vec![schemaless(k), schemaless(v)]))
                .collect(),
        ),
    }
}
