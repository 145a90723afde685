namespace rs org.example.common

struct Header {
  1: string trace_id
}
