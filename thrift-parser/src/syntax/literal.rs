//! Literal values as Apache's lexer reads them.

/// Why a literal could not be read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum LiteralError {
    Overflow,
    BadEscape(char),
    Newline,
}

/// A decimal or hex integer literal with an optional sign, as a 64-bit signed integer.
pub(crate) fn parse_int(text: &str) -> Result<i64, LiteralError> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let magnitude = match digits.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).map_err(|_| LiteralError::Overflow)?,
        None => digits.parse::<u64>().map_err(|_| LiteralError::Overflow)?,
    };
    if negative {
        if magnitude > i64::MAX as u64 + 1 {
            return Err(LiteralError::Overflow);
        }
        Ok((magnitude as i64).wrapping_neg())
    } else {
        i64::try_from(magnitude).map_err(|_| LiteralError::Overflow)
    }
}

/// The body of a string literal (between its quotes) with its escapes resolved. Apache accepts
/// `\\ \" \' \n \r \t` and nothing else, and no line break inside a literal.
pub(crate) fn unescape(body: &str) -> Result<String, LiteralError> {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some(c @ ('"' | '\'' | '\\')) => out.push(c),
                Some(other) => return Err(LiteralError::BadEscape(other)),
                None => return Err(LiteralError::BadEscape('\\')),
            },
            '\n' => return Err(LiteralError::Newline),
            c => out.push(c),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(parse_int("42"), Ok(42));
        assert_eq!(parse_int("-0x10"), Ok(-16));
        assert_eq!(parse_int("+7"), Ok(7));
        assert_eq!(parse_int("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(
            parse_int("9223372036854775808"),
            Err(LiteralError::Overflow)
        );
        assert_eq!(parse_int("0xFFFFFFFFFFFFFFFF"), Err(LiteralError::Overflow));
        assert_eq!(
            parse_int("9876543210987654321"),
            Err(LiteralError::Overflow)
        );
    }

    #[test]
    fn escapes() {
        assert_eq!(unescape(r#"a\tb\"c\'d\\"#).unwrap(), "a\tb\"c'd\\");
        assert_eq!(unescape(r"\x"), Err(LiteralError::BadEscape('x')));
        assert_eq!(unescape("a\nb"), Err(LiteralError::Newline));
    }
}
