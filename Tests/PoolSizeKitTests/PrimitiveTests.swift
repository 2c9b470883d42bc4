import Foundation
import Dispatch
import PoolSizeKit
import PoolSizeModel
import Testing

/// Every primitive under real threads: 8 threads race through 40 sections each, and each
/// section sleeps while it holds the shared value, so any overlap loses an update.
@Suite struct PrimitiveTests {
    static func hammer(_ section: any GuardedSection, threads: Int = 8, perThread: Int = 40) -> IntegrityReport {
        let group = DispatchGroup()
        for t in 0..<threads {
            group.enter()
            Thread.detachNewThread {
                for i in 0..<perThread {
                    section.enter(task: UInt64(t * perThread + i)) { SleepWaiter().wait(microseconds: 50) }
                }
                group.leave()
            }
        }
        group.wait()
        return section.verify()
    }

    static let protecting = PrimitiveKind.allCases.filter { $0 != .none && $0 != .unprotected }

    @Test(arguments: protecting)
    func excludesUnderRealThreads(kind: PrimitiveKind) throws {
        let section = try #require(PrimitiveFactory.make(kind))
        #expect(section.kind == kind)
        let report = Self.hammer(section)
        #expect(report.sections == 320)
        #expect(report.isIntact, "\(kind.rawValue): \(report.details)")
        #expect(report.verdict == .ok)
    }

    @Test(arguments: [PrimitiveKind.rwlock, .barrier])
    func readersShareWritersExclude(kind: PrimitiveKind) throws {
        let section = try #require(PrimitiveFactory.make(kind, readRatio: 0.7, seed: 5))
        let report = Self.hammer(section)
        #expect(report.isIntact, "\(kind.rawValue): \(report.details)")
        #expect(report.sections == 320)
        // About 30% writes; every write is accounted for in the shared value.
        #expect(report.writes > 40 && report.writes < 160)
        #expect(report.finalValue == report.writes)
    }

    /// The check must catch a broken primitive, or it proves nothing.
    @Test func integrityCheckCatchesAnUnprotectedSection() throws {
        let section = try #require(PrimitiveFactory.make(.unprotected))
        let report = Self.hammer(section)
        #expect(!report.isIntact)
        #expect(report.verdict == .violated)
        #expect(report.finalValue < report.writes)
        #expect(report.overlaps > 0)
    }

    @Test func noneHasNoSection() {
        #expect(PrimitiveFactory.make(.none) == nil)
    }

    @Test func readSelectorHonoursTheRatio() {
        let selector = ReadSelector(ratio: 0.25, seed: 9)
        let reads = (0..<10_000).filter { selector.isRead(UInt64($0)) }.count
        #expect(abs(reads - 2_500) < 200)
        #expect(!ReadSelector(ratio: 0, seed: 9).isRead(3))
    }
}
