import PoolSizeModel
import Testing

@Suite struct SizeSelectionParsing {
    @Test(arguments: [
        ("auto", SizeSelection.auto),
        ("AUTO", .auto),
        ("1,2,4,8", .explicit([1, 2, 4, 8])),
        ("8, 4,4 ,1", .explicit([1, 4, 8])),
        ("1...5", .explicit([1, 2, 3, 4, 5])),
        ("1..3", .explicit([1, 2, 3])),
        ("8...32:8", .explicit([8, 16, 24, 32])),
        ("1,2,10...12", .explicit([1, 2, 10, 11, 12])),
        ("7", .explicit([7])),
    ])
    func accepts(text: String, expected: SizeSelection) throws {
        #expect(try SizeSelection.parse(text) == expected)
    }

    @Test(arguments: [
        ("", "error: `sizes`: no sizes given; use a list like 1,2,4,8, a range like 1...16 or 8...64:8, or auto"),
        (
            "1,,2",
            "error: `sizes`: empty entry in '1,,2'; use a list like 1,2,4,8, a range like 1...16 or 8...64:8, or auto"
        ),
        ("0,1", "error: `sizes`: pool size 0 is not positive; every size must be at least 1"),
        ("-4", "error: `sizes`: pool size -4 is not positive; every size must be at least 1"),
        (
            "two",
            "error: `sizes`: 'two' is not a whole number; use a list like 1,2,4,8, a range like 1...16 or 8...64:8, or auto"
        ),
        (
            "1.5",
            "error: `sizes`: '1.5' is not a whole number; use a list like 1,2,4,8, a range like 1...16 or 8...64:8, or auto"
        ),
        ("16...1", "error: `sizes`: range '16...1' runs backwards; write 1...16"),
        ("1...8:0", "error: `sizes`: step in '1...8:0' must be a whole number >= 1"),
        (
            "1...x",
            "error: `sizes`: '1...x' is not a range; use a list like 1,2,4,8, a range like 1...16 or 8...64:8, or auto"
        ),
        ("5000", "error: `sizes`: pool size 5000 exceeds the maximum 4096"),
    ])
    func refuses(text: String, message: String) {
        do {
            _ = try SizeSelection.parse(text)
            Issue.record("accepted '\(text)'")
        } catch {
            #expect(error.description == message)
            #expect(error.exitCode == 64)
        }
    }

    /// P = 32 (io on 2 cores): powers of two below 24, steps of 2 from 24 to 40, then 48 and 64.
    @Test func autoGridAroundThirtyTwo() {
        #expect(
            SizeGrid.auto(prediction: 32, cores: 2) == [1, 2, 4, 8, 16, 24, 26, 28, 30, 32, 34, 36, 38, 40, 48, 64])
    }

    /// P = 2 (cpu on 2 cores): 1 below 1.5; 1, 2, 3 around it; 3 and max(4, 2 × cores) = 4.
    @Test func autoGridAroundTwo() {
        #expect(SizeGrid.auto(prediction: 2, cores: 2) == [1, 2, 3, 4])
    }

    @Test func autoGridCoversTwiceThePrediction() {
        for p in [1.0, 3.3, 6, 17.5, 100, 300] {
            let grid = SizeGrid.auto(prediction: p, cores: 2)
            #expect(grid.first == 1)
            #expect(Double(grid.last!) >= 2 * p)
            #expect(grid == grid.sorted())
        }
    }
}
