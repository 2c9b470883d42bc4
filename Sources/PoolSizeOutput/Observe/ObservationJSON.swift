import PoolSizeObserve

/// `observe --format json`: the observation as the stable JSON every result file uses
/// (snake_case keys, sorted, `schema_version`). Pure.
package enum ObservationJSON {
    package static func render(_ observation: Observation) -> String {
        JSONExport.serialize(observation)
    }
}
