// What the generated code declares and leaves to the user: ThriftTest.thrift has sets and maps
// keyed by Insanity (CrazyNesting), which need Insanity::operator<. As Apache's
// test/cpp/src/ThriftTest_extras.cpp: an order on the printed form.
#include <thrift/TToString.h>

#include "ThriftTest_types.h"

namespace thrift {
namespace test {

bool Insanity::operator<(const Insanity& other) const {
  return apache::thrift::to_string(*this) < apache::thrift::to_string(other);
}

} // namespace test
} // namespace thrift
