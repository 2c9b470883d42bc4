import ArgumentParser
import PoolSizeModel

/// `--database` and `--database-connections`: the database behind a chain of pools (`--server`
/// with a knob per pool, one `--sizes name=…` each), asked before the sweep how many connections
/// it allows, so that no cell past its limit runs.
struct SweepChainOptions: ParsableArguments {
    @Option(help: ArgumentHelp(Help.database, valueName: "URL"))
    var database: String?

    @Option(
        name: .customLong("database-connections"), help: ArgumentHelp(Help.connections, valueName: "PRODUCT"))
    var databaseConnections: String?

    /// These flags apply to a chain alone: refused for one pool's sweep.
    func checkOnePool() throws(PoolSizeError) {
        for (flag, given) in [("--database", database != nil), ("--database-connections", databaseConnections != nil)]
        where given {
            throw .invalidOption(
                flag: flag,
                message:
                    "watches the database behind a chain of pools; give one --sizes per knob of --server (--sizes workers=1,2 --sizes threads=2,4,8), or drop \(flag)"
            )
        }
    }

    private enum Help {
        static let database = """
            The PostgreSQL database behind a chain's server (libpq URL; the password from PGPASSWORD or ~/.pgpass, \
            never recorded): its max_connections, reserved slots, the role's limit and others' connections are read \
            before the sweep, and no cell past them runs; during each trial its backends' states, wait events and \
            CPU (when local) are sampled over one connection of its own.
            """
        static let connections = """
            Which knobs multiply to a cell's database connections, with an optional overflow: workers*pool or \
            workers*pool+2. Needs --database.
            """
    }
}
