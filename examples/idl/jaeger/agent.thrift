# Jaeger's agent (jaegertracing/jaeger-idl, thrift/agent.thrift): compact Thrift over UDP on
# port 6831, one oneway call per datagram. emitZipkinBatch is left out (it needs Zipkin's IDL).

include "jaeger.thrift"

namespace java io.jaegertracing.agent.thrift

service Agent {
  oneway void emitBatch(1: jaeger.Batch batch)
}
