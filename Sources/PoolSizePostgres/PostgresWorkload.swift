import PoolSizeKit

/// One trial's tasks of a `PostgresSource`: each runs the transaction once.
struct PostgresWorkload: Workload {
    let source: PostgresSource
    let seed: UInt64
    func run(task index: UInt64) { _ = source.perform(task: index, seed: seed) }
    func execute(task index: UInt64) -> TaskOutcome { source.perform(task: index, seed: seed) }
}
