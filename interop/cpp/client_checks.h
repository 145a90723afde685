// The checks the C++ client makes (tt_client.cpp runs them): every ThriftTest call, in order,
// with its expected result.
#ifndef INTEROP_CPP_CLIENT_CHECKS_H
#define INTEROP_CPP_CLIENT_CHECKS_H

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "client_connection.h"
#include "peer.h"

namespace tt_client {

// One call and the checks of its result; throws CheckFailed when a check fails, and what the
// library throws when the call fails.
typedef std::function<void(Connection&)> Check;
typedef std::vector<std::pair<std::string, Check> > Checks;

// The checks for these flags, named, in the order they run.
Checks make_checks(const peer::Flags& f);

// Set for --protocol json: any NaN then equals any NaN (the text has no sign nor payload for
// it, and Apache's C++ JSON reader makes "NaN" into x86's default NaN); doubles otherwise
// compare by their bits.
extern bool json_nan;

// `text`, cut to `limit` characters and its length said when longer.
std::string shorten(const std::string& text, size_t limit = 120);

} // namespace tt_client

#endif
