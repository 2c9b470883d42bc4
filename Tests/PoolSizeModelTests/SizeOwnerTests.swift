import PoolSizeModel
import Testing

/// Who sets each pool kind's size: the one fact the shared stages branch on.
@Suite struct SizeOwnerTests {
    @Test func theAdaptivePoolSetsItsOwnSizeAndAServersCommandItsOwn() {
        let owners = Dictionary(uniqueKeysWithValues: PoolKind.allCases.map { ($0, $0.sizeOwner) })
        #expect(
            owners == [
                .queuePool: .sweep, .threadPool: .sweep, .globalQueue: .sweep, .operationQueue: .sweep,
                .taskGroup: .sweep, .adaptive: .pool, .server: .command, .loadTool: .command,
            ])
    }

    /// Only a load tool run alone reports no CPU of the pool's tasks: the trial checks against
    /// the cores skip it, and the outputs leave out its CPU columns.
    @Test func onlyALoadToolAloneMeasuresNoTaskCPU() {
        #expect(PoolKind.allCases.filter { !$0.measuresTaskCPU } == [.loadTool])
    }

    @Test func onlyAPoolThatSizesItselfLeavesTheTrialsSize() {
        #expect(SizeOwner.sweep.holdsTrialSize)
        #expect(SizeOwner.command.holdsTrialSize)
        #expect(!SizeOwner.pool.holdsTrialSize)
    }
}
