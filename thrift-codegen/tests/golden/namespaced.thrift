include "namespaced_other.thrift"

namespace rs org.example.api
namespace java org.example

struct Request {
  1: namespaced_other.Header header
}
