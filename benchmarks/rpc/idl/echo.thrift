// The RPC benchmark's service: one small echo call.
namespace rs echo

service Echo {
  string echo(1: string message)
}
