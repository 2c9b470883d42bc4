@testable import PoolSizeCLI
import PoolSizeModel
import Testing

@Suite struct BenchHarnessCommandTests {
    @Test func defaultPlanIsThreeTaskSizesAtOneCoresTwiceAndFourTimesCores() throws {
        let (tasks, sizes) = try BenchHarnessCommand.parse([]).plan(cores: 2)
        #expect(tasks == [20, 100, 1_000])
        #expect(sizes == [1, 2, 4, 8])
        #expect(try BenchHarnessCommand.parse([]).plan(cores: 1).1 == [1, 2, 4])
    }

    @Test func sidesDefaultToAllThreeAndKeepEachOnce() throws {
        #expect(try BenchHarnessCommand.parse([]).sidesToRun() == [.harness, .reference, .ownQueue])
        #expect(
            try BenchHarnessCommand.parse(["--sides", "own-queue, harness,own-queue"]).sidesToRun() == [
                .ownQueue, .harness,
            ])
    }

    @Test(arguments: [
        (
            ["bench-harness", "--task-us", "20,x"],
            "error: --task-us: 'x' is not a task time of 1 to 100000 µs; pass e.g. 20,100,1000"
        ),
        (
            ["bench-harness", "--sizes", "0"],
            "error: --sizes: '0' is not a queue count of 1 to 4096; pass e.g. 1,2,4,8"
        ),
        (["bench-harness", "--trial-ms", "10"], "error: --trial-ms: must be 50 to 60000, got 10"),
        (["bench-harness", "--repeat", "0"], "error: --repeat: must be 1 to 50, got 0"),
        (
            ["bench-harness", "--sides", "harness,raw"],
            "error: --sides: 'raw' is not a side; pass some of harness,reference,own-queue,adaptive"
        ),
        (
            ["bench-harness", "--sides", ""],
            "error: --sides: '' is not a side; pass some of harness,reference,own-queue,adaptive"
        ),
    ])
    func badOptionsNameTheFlag(arguments: [String], message: String) {
        let (code, errors) = runCLI(arguments)
        #expect(code == 64)
        #expect(errors == [message])
    }
}
