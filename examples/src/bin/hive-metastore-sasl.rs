//! A Hive Metastore client as Hive's own clients connect: binary protocol, SASL PLAIN under
//! it (framed messages after the negotiation), a pool of connections failing over between two
//! metastores, and retries for reads only.
//!
//! `cargo run -p thrift-examples --bin hive-metastore-sasl` runs it against two stand-in
//! metastores it starts itself, and stops the first midway to show the failover. To reach
//! real ones: `... -- metastore-1:9083,metastore-2:9083 USER PASSWORD` (a metastore with
//! `hive.metastore.sasl.enabled` and PLAIN authentication, as behind a LDAP setup; Kerberos
//! needs a GSSAPI `ClientMechanism`, not provided).

use std::net::TcpListener;
use std::sync::Arc;

use thrift_examples::idl::hive_metastore::{
    Database, MetaException, NoSuchObjectException, ThriftHiveMetastore, ThriftHiveMetastoreClient,
    ThriftHiveMetastoreGetAllDatabasesError, ThriftHiveMetastoreGetDatabaseError,
    ThriftHiveMetastoreGetMetaConfError, ThriftHiveMetastoreProcessor,
};
use thrift_runtime::rpc::TcpConnector;
use thrift_runtime::rpc::blocking::{Pool, SaslListener, Server, ServerHandle};
use thrift_runtime::rpc::sasl::SaslConnector;
use thrift_runtime::rpc::sasl::{Plain, SaslServerConfig};
use thrift_runtime::rpc::{ClientOptions, PoolOptions, ProtocolKind, ServerOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (endpoints, user, password, mut stand_ins) = match args.as_slice() {
        [endpoints, user, password] => (
            endpoints.split(',').map(str::to_owned).collect::<Vec<_>>(),
            user.clone(),
            password.clone(),
            Vec::new(),
        ),
        [] => {
            let stand_ins = vec![stand_in("metastore-1")?, stand_in("metastore-2")?];
            let endpoints = stand_ins
                .iter()
                .map(|s| s.local_addr().to_string())
                .collect();
            (endpoints, "hive".to_owned(), "s3cret".to_owned(), stand_ins)
        }
        _ => {
            return Err(
                "usage: hive-metastore-sasl [HOST:PORT[,HOST:PORT...] USER PASSWORD]".into(),
            );
        }
    };

    // ANCHOR: pool
    // Every connection of the pool negotiates SASL PLAIN when it opens; connecting tries the
    // endpoints in order and stays with the first that answers.
    let connector = SaslConnector::new(TcpConnector, Plain::new(&user, &password));
    let options = ClientOptions::new(ProtocolKind::Binary);
    let pool = Pool::with_connector(
        connector,
        endpoints,
        options,
        PoolOptions {
            max_connections: 4,
            // These calls are reads: safe to send again when a metastore goes away under
            // them, as Hive's RetryingMetaStoreClient does.
            retries: 1,
            ..PoolOptions::default()
        },
    )?;
    let mut metastore = ThriftHiveMetastoreClient::new(pool.clone());
    // ANCHOR_END: pool

    // ANCHOR: calls
    println!("databases: {:?}", metastore.get_all_databases()?);
    let database = metastore.get_database("default".into())?;
    println!("default is at {}", database.location_uri);
    match metastore.get_database("nope".into()) {
        Err(ThriftHiveMetastoreGetDatabaseError::O1(missing)) => {
            println!("no such database: {}", missing.message)
        }
        other => println!("unexpected: {other:?}"),
    }
    // ANCHOR_END: calls

    if !stand_ins.is_empty() {
        // The first metastore goes away: the next call's connection closes under it, the
        // pool retries it on a new connection to the second, and stays there.
        stand_ins.remove(0).shutdown();
        println!("metastore-1 stopped");
        println!("databases: {:?}", metastore.get_all_databases()?);
        let conf = metastore.get_meta_conf("hive.metastore.warehouse.dir".into())?;
        println!("warehouse: {conf}");
    }
    println!("{} connection(s) open", pool.live());
    Ok(())
}

/// A metastore that knows one database and one setting, and says which it is.
struct StandIn(&'static str);

impl ThriftHiveMetastore for StandIn {
    fn get_all_databases(&self) -> Result<Vec<String>, ThriftHiveMetastoreGetAllDatabasesError> {
        Ok(vec!["default".into(), format!("served_by_{}", self.0)])
    }

    fn get_database(&self, name: String) -> Result<Database, ThriftHiveMetastoreGetDatabaseError> {
        if name != "default" {
            let message = format!("Database {name} not found");
            return Err(NoSuchObjectException { message }.into());
        }
        Ok(Database {
            name,
            description: "Default Hive database".into(),
            location_uri: "hdfs://namenode:8020/user/hive/warehouse".into(),
            parameters: Default::default(),
        })
    }

    fn get_meta_conf(&self, key: String) -> Result<String, ThriftHiveMetastoreGetMetaConfError> {
        match key.as_str() {
            "hive.metastore.warehouse.dir" => Ok("/user/hive/warehouse".into()),
            _ => Err(MetaException {
                message: format!("{key} is not a metastore setting"),
            }
            .into()),
        }
    }
}

// ANCHOR: stand_in
/// A stand-in metastore on a port of the kernel's choosing, taking SASL PLAIN as `hive`.
fn stand_in(name: &'static str) -> std::io::Result<ServerHandle> {
    let sasl = SaslServerConfig::new().plain(|c| c.user == "hive" && c.password == "s3cret");
    let listener = SaslListener::new(TcpListener::bind("127.0.0.1:0")?, Arc::new(sasl));
    Server::new(ServerOptions::default())
        .spawn(listener, ThriftHiveMetastoreProcessor::new(StandIn(name)))
}
// ANCHOR_END: stand_in
