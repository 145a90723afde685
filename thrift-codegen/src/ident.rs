//! Every Rust name the generator emits comes from here: case conversion (heck), keywords,
//! and clashes after conversion.

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};
use proc_macro2::{Ident, Span};

/// Words that are keywords in some Rust edition (strict, reserved and 2018+/2024 keywords).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "box", "break", "const", "continue", "crate", "do", "dyn", "else",
    "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop",
    "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return", "self",
    "Self", "static", "struct", "super", "trait", "true", "try", "type", "typeof", "unsafe",
    "unsized", "use", "virtual", "where", "while", "yield", "abstract", "become",
];

/// Keywords that cannot be raw identifiers: they get a `_` suffix instead.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate", "_"];

/// Turns an already-cased name into a valid identifier: `type` → `r#type`, `self` → `self_`,
/// a leading digit gets a `_` prefix, an empty name becomes `_empty`.
pub fn sanitize(name: &str) -> String {
    if name.is_empty() {
        return "_empty".to_string();
    }
    if NOT_RAW.contains(&name) {
        return format!("{name}_");
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        return format!("_{name}");
    }
    name.to_string()
}

/// An identifier token for a sanitized name (raw when it is a keyword).
pub fn ident(name: &str) -> Ident {
    let name = sanitize(name);
    if KEYWORDS.contains(&name.as_str()) {
        Ident::new_raw(&name, Span::call_site())
    } else {
        Ident::new(&name, Span::call_site())
    }
}

/// The name a `rust.name` annotation gives an item, when it is a Rust identifier that is not a
/// keyword (another value is a located error, reported with the other annotations).
pub fn explicit_name(annotations: &[thrift_idl_parser::ast::Annotation]) -> Option<&str> {
    annotations
        .iter()
        .find(|a| a.key.name == "rust.name")
        .map(|a| a.value.as_str())
        .filter(|name| is_identifier(name))
}

/// Whether `name` is a plain Rust identifier (not a keyword, not raw).
pub fn is_identifier(name: &str) -> bool {
    !name.starts_with("r#")
        && !NOT_RAW.contains(&name)
        && !KEYWORDS.contains(&name)
        && syn::parse_str::<Ident>(name).is_ok()
}

/// `UpperCamelCase`, for types and enum/union variants.
pub fn type_name(name: &str) -> String {
    let cased = name.to_upper_camel_case();
    // heck drops a leading underscore; keep names distinct from their cased twins anyway.
    if cased.is_empty() {
        sanitize(name)
    } else {
        sanitize(&cased)
    }
}

/// `snake_case`, for fields, functions and modules.
pub fn field_name(name: &str) -> String {
    sanitize(&name.to_snake_case())
}

/// `SCREAMING_SNAKE_CASE`, for consts and enum values.
pub fn const_name(name: &str) -> String {
    sanitize(&name.to_shouty_snake_case())
}

/// Makes names unique in one scope, deterministically: the first keeps its name, later
/// clashes get `_2`, `_3`… in declaration order.
#[derive(Default)]
pub struct Scope {
    taken: std::collections::HashSet<String>,
}

impl Scope {
    pub fn new() -> Scope {
        Scope::default()
    }

    /// Reserves a name that generated code needs in this scope (e.g. a method name).
    pub fn reserve(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }

    /// Whether no name in this scope is `name` yet.
    pub fn is_free(&self, name: &str) -> bool {
        !self.taken.contains(name)
    }

    /// Like [`Scope::unique`] for `UpperCamelCase` names: clashes get `2`, `3`… without an
    /// underscore, so that the name stays camel case.
    pub fn unique_camel(&mut self, name: String) -> String {
        self.unique_with(name, "")
    }

    pub fn unique(&mut self, name: String) -> String {
        self.unique_with(name, "_")
    }

    fn unique_with(&mut self, name: String, separator: &str) -> String {
        if self.taken.insert(name.clone()) {
            return name;
        }
        (2..)
            .map(|n| format!("{name}{separator}{n}"))
            .find(|candidate| self.taken.insert(candidate.clone()))
            .expect("an unused suffix exists")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_and_cases() {
        assert_eq!(ident(&field_name("type")).to_string(), "r#type");
        assert_eq!(ident(&field_name("self")).to_string(), "self_");
        assert_eq!(ident(&type_name("self")).to_string(), "Self_");
        assert_eq!(ident(&field_name("crate")).to_string(), "crate_");
        assert_eq!(field_name("fooBar"), "foo_bar");
        assert_eq!(type_name("foo_bar"), "FooBar");
        assert_eq!(type_name("HTTPRequest"), "HttpRequest");
        assert_eq!(const_name("maxSize"), "MAX_SIZE");
        assert_eq!(field_name("2fa"), "_2fa");
        assert_eq!(ident(&field_name("async")).to_string(), "r#async");
    }

    #[test]
    fn clashes_are_resolved_in_order() {
        let mut scope = Scope::new();
        assert_eq!(scope.unique(field_name("fooBar")), "foo_bar");
        assert_eq!(scope.unique(field_name("foo_bar")), "foo_bar_2");
        assert_eq!(scope.unique(field_name("FooBar")), "foo_bar_3");
    }
}
