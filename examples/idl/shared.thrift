namespace rs shared

/** A point on a map. */
struct Point {
  1: required double lat
  2: required double lon
}
