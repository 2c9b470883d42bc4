import PoolSizeModel
import Testing

/// Who sets each pool kind's size: the one fact the shared stages branch on.
@Suite struct SizeOwnerTests {
    @Test func theAdaptivePoolSetsItsOwnSizeAndAServersCommandItsOwn() {
        let owners = Dictionary(uniqueKeysWithValues: PoolKind.allCases.map { ($0, $0.sizeOwner) })
        #expect(
            owners == [
                .queuePool: .sweep, .threadPool: .sweep, .globalQueue: .sweep, .operationQueue: .sweep,
                .taskGroup: .sweep, .adaptive: .pool, .server: .command,
            ])
    }

    @Test func onlyAPoolThatSizesItselfLeavesTheTrialsSize() {
        #expect(SizeOwner.sweep.holdsTrialSize)
        #expect(SizeOwner.command.holdsTrialSize)
        #expect(!SizeOwner.pool.holdsTrialSize)
    }
}
