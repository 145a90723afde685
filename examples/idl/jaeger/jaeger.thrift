# The span model of Jaeger's Thrift API (jaegertracing/jaeger-idl, thrift/jaeger.thrift), with
# its field ids, so that what the examples send is what a Jaeger agent or collector reads.
# ClientStats (Batch field 4) is left out: optional, and a reader skips what it does not know.

namespace java io.jaegertracing.thriftjava

enum TagType { STRING, DOUBLE, BOOL, LONG, BINARY }

struct Tag {
  1: required string  key
  2: required TagType vType
  3: optional string  vStr
  4: optional double  vDouble
  5: optional bool    vBool
  6: optional i64     vLong
  7: optional binary  vBinary
}

struct Log {
  1: required i64       timestamp
  2: required list<Tag> fields
}

enum SpanRefType { CHILD_OF, FOLLOWS_FROM }

struct SpanRef {
  1: required SpanRefType refType
  2: required i64         traceIdLow
  3: required i64         traceIdHigh
  4: required i64         spanId
}

struct Span {
  1:  required i64           traceIdLow
  2:  required i64           traceIdHigh
  3:  required i64           spanId
  4:  required i64           parentSpanId
  5:  required string        operationName
  6:  optional list<SpanRef> references
  7:  required i32           flags
  8:  required i64           startTime
  9:  required i64           duration
  10: optional list<Tag>     tags
  11: optional list<Log>     logs
}

struct Process {
  1: required string    serviceName
  2: optional list<Tag> tags
}

struct Batch {
  1: required Process    process
  2: required list<Span> spans
  3: optional i64        seqNo
}
