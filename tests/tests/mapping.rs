//! Mapping details a user meets first: enum and struct defaults, defaults from an included
//! file's consts in both forms, exceptions' `Display`.

use thrift_runtime::{Binary, Compact, ThriftRead};
use thrift_tests::golden::fixture_enums::enums::{Color, Empty, Signed};
use thrift_tests::golden::fixture_exceptions::exceptions::{NotFound, Refused};
use thrift_tests::golden::fixture_included_const::included_const::{Book, BookRef};

#[test]
fn an_enums_default_is_its_first_declared_value() {
    // Color's values are 1, 2 and 16: 0 is not one of them.
    assert_eq!(Color::default(), Color::RED);
    assert_eq!(Signed::default(), Signed::MINUS_ONE);
    // Without values there is nothing else to take.
    assert_eq!(Empty::default().0, 0);
}

#[test]
fn defaults_from_an_included_files_consts_in_both_forms() {
    let book = Book::default();
    assert_eq!(book.title, "untitled");
    assert_eq!(book.pages, 10);
    assert_eq!(book.tags, ["new"]);
    assert_eq!(book.subtitle, "aliased");
    // An empty struct on the wire: the defaults apply, borrowed and owned.
    let empty = [0u8]; // field stop
    let borrowed = BookRef::decode::<Binary>(&empty).unwrap();
    assert_eq!(borrowed.title, "untitled");
    assert_eq!(borrowed.subtitle, "aliased");
    assert_eq!(Book::from(&borrowed), book);
    assert_eq!(Book::decode::<Compact>(&empty).unwrap(), book);
}

#[test]
fn an_exceptions_display_is_its_message() {
    let missing = NotFound {
        message: "no such key".into(),
        code: 404,
    };
    assert_eq!(missing.to_string(), "NotFound: no such key");
    let refused = Refused {
        reason: Some("quota".into()),
        code: 3,
    };
    assert_eq!(refused.to_string(), "Refused: quota");
    // Without the message: every field, as `Debug` shows them.
    let silent = Refused {
        reason: None,
        code: 3,
    };
    assert_eq!(silent.to_string(), format!("{silent:?}"));
    assert!(silent.to_string().contains("code: 3"));
}

/// `Builder::type_attribute` and kin (the `attributes` golden fixture): the attributes are on
/// the items the paths name, in the form asked for.
#[test]
fn builder_attributes_are_on_the_items_their_paths_name() {
    use thrift_tests::golden::fixture_attributes::attributes::{Failed, Tagged, TaggedRef};
    fn is_eq<T: Eq>(_: &T) {}
    let owned = Tagged {
        name: "a".into(),
        ..Tagged::default()
    };
    // `#[derive(Eq)]` on the borrowing form only (the owned one derives it on its own).
    let borrowed = TaggedRef {
        name: "a",
        count: None,
        color: owned.color,
    };
    is_eq(&borrowed);
    assert_eq!(Tagged::from(&borrowed), owned);
    // `#[non_exhaustive]` on the exception: outside its crate it is built through `Default`
    // (a struct expression would not compile).
    let mut failed = Failed::default();
    failed.why = "x".into();
    assert_eq!(failed.to_string(), "Failed: x");
    let code = include_str!("../../thrift-codegen/tests/golden/attributes.rs");
    for expected in [
        "#[doc(alias = \"attributed\")]\npub struct Color",
        "#[repr(C)]\npub struct Tagged {\n    #[doc(alias = \"title\")]",
        "#[derive(Eq)]\npub struct TaggedRef<'de> {\n    #[doc(alias = \"title_ref\")]",
        "#[non_exhaustive]\npub struct Failed",
    ] {
        assert!(code.contains(expected), "{expected}");
    }
}

/// `new` takes the `required` fields; the others are at their defaults. Structs without
/// required fields have none (`Default` is the way).
#[test]
fn new_takes_the_required_fields() {
    use thrift_tests::golden::fixture_base_types::base_types::Requiredness;
    let value = Requiredness::new(1, "s".into(), true);
    assert_eq!(
        value,
        Requiredness {
            req: 1,
            req_string: "s".into(),
            req_bool: true,
            ..Requiredness::default()
        }
    );
    let code = include_str!("../../thrift-codegen/tests/golden/base_types.rs");
    assert!(
        !code.contains("impl BaseTypes {"),
        "BaseTypes has no required field"
    );
}

/// `rust.box` and `Builder::boxed` hold a field as `Box<T>` (union variants too), and the
/// values round-trip in both protocols, owned and borrowed, as the unboxed encoding.
#[test]
fn boxed_fields_round_trip() {
    use thrift_runtime::{Binary, Compact, ThriftRead, ThriftWrite};
    use thrift_tests::golden::fixture_attributes::attributes::{
        Choice, ChoiceRef, Color, Holder, HolderRef, Tagged,
    };
    let tagged = Tagged {
        name: "t".into(),
        count: Some(3),
        color: Color::GREEN,
    };
    let holder = Holder {
        boxed_by_annotation: Box::new(tagged.clone()),
        boxed_by_builder: Some(Box::new(Tagged::default())),
        count: 9,
    };
    let choice = Choice::Tagged(Box::new(tagged.clone()));
    for bytes in [
        holder.encode_to_vec::<Binary>().unwrap(),
        holder.encode_to_vec::<Compact>().unwrap(),
    ] {
        let binary = bytes[0] == 12;
        let back = if binary {
            Holder::decode::<Binary>(&bytes).unwrap()
        } else {
            Holder::decode::<Compact>(&bytes).unwrap()
        };
        assert_eq!(back, holder);
    }
    let bytes = holder.encode_to_vec::<Compact>().unwrap();
    let borrowed = HolderRef::decode::<Compact>(&bytes).unwrap();
    assert_eq!(borrowed.boxed_by_annotation.name, "t");
    assert_eq!(Holder::from(&borrowed), holder);
    let bytes = choice.encode_to_vec::<Binary>().unwrap();
    assert_eq!(Choice::decode::<Binary>(&bytes).unwrap(), choice);
    assert_eq!(
        Choice::from(&ChoiceRef::decode::<Binary>(&bytes).unwrap()),
        choice
    );
}
