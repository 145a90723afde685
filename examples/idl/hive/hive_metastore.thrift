# A few methods of Hive's metastore service (apache/hive, standalone-metastore
# hive_metastore.thrift) with Hive's names and field ids, so that the client the examples
# build talks to a real metastore. The real Database has more fields; a reader skips those
# it does not know.

namespace java org.apache.hadoop.hive.metastore.api

exception MetaException {
  1: string message
}

exception NoSuchObjectException {
  1: string message
}

struct Database {
  1: string name
  2: string description
  3: string locationUri
  4: map<string, string> parameters
}

service ThriftHiveMetastore {
  list<string> get_all_databases() throws (1: MetaException o1)
  Database get_database(1: string name) throws (1: NoSuchObjectException o1, 2: MetaException o2)
  string getMetaConf(1: string key) throws (1: MetaException o1)
}
