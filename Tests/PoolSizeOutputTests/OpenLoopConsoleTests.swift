import Foundation
import PoolSizeAnalysis
import PoolSizeModel
@testable import PoolSizeOutput
import Testing

/// The console summary (and summary.txt) of open-loop runs.
@Suite struct OpenLoopConsoleSummaryTests {
    @Test(arguments: ["openloop", "openloop-range"])
    func golden(fixture: String) throws {
        let run = fixture == "openloop" ? OpenLoopFixtures.single : OpenLoopFixtures.range
        try GoldenFile.check(OpenLoopFixtures.console(run), "\(fixture)/summary.txt")
    }
}
