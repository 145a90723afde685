//! volo's code for the benchmark's echo service (`../idl/echo.thrift`), by volo-build.

fn main() {
    volo_build::Builder::thrift()
        .add_service("../idl/echo.thrift")
        .filename("volo_gen.rs".into())
        .write()
        .unwrap();
}
