include "shared.thrift"

namespace rs tutorial

/** How a place is used. */
enum Kind {
  HOME = 1,
  WORK = 2,
  OTHER = 10
}

const i32 MAX_TAGS = 16

/** A named place. */
struct Place {
  1: required string name
  2: required shared.Point location
  3: Kind kind = Kind.OTHER
  4: optional list<string> tags
  5: map<string, binary> attachments
}

exception NotFound {
  1: string name
}

service Places {
  /** Looks a place up by name. */
  Place get(1: string name) throws (1: NotFound missing)
  void put(1: Place place)
  oneway void forget(1: string name)
}
