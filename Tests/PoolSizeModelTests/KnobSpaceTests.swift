import Foundation
import PoolSizeModel
import Testing

/// A chain's knobs (`--sizes name=sizes`): the cells they make, ties, and one exact line for each
/// space that cannot be swept.
@Suite struct KnobSpaceTests {
    @Test func plainSizesAreNoSpace() throws {
        #expect(try KnobSpace.parse(["1,2,4"]) == nil)
        #expect(try KnobSpace.parse([]) == nil)
    }

    /// The first knob varies slowest; a tie takes its knob's value in every cell.
    @Test func cellsAreEveryCombinationWithTiesFilledIn() throws {
        let space = try #require(try KnobSpace.parse(["workers=1,2", "threads=4,8...8,2", "pool=threads"]))
        #expect(space.names == ["workers", "threads", "pool"])
        #expect(space.free.map(\.name) == ["workers", "threads"])
        #expect(space.cellCount == 6)
        #expect(
            space.cells.map(\.description) == [
                "workers=1 threads=2 pool=2", "workers=1 threads=4 pool=4", "workers=1 threads=8 pool=8",
                "workers=2 threads=2 pool=2", "workers=2 threads=4 pool=4", "workers=2 threads=8 pool=8",
            ])
        #expect(space.knobs.map(\.written) == ["workers=1,2", "threads=2,4,8", "pool=threads"])
    }

    /// `auto` is a knob with sizes of its own still to be chosen: no cell until they are, then
    /// as if listed; a tie to it follows it.
    @Test func autoKnobsAreChosenBeforeTheCells() throws {
        let space = try #require(try KnobSpace.parse(["workers=AUTO", "threads=2,4", "pool=workers"]))
        #expect(space.knobs.map(\.written) == ["workers=auto", "threads=2,4", "pool=workers"])
        #expect(space.knobs.map(\.isFree) == [true, true, false])
        let chosen = space.resolvingAuto { name in name == "workers" ? [1, 3] : [] }
        #expect(chosen.knobs.map(\.written) == ["workers=1,3", "threads=2,4", "pool=workers"])
        #expect(chosen.cells.map(\.description).first == "workers=1 threads=2 pool=1")
        #expect(chosen.cellCount == 4)
    }

    /// A tie may follow another tie to the knob with sizes.
    @Test func tiesFollowTies() throws {
        let space = try #require(try KnobSpace.parse(["a=3", "c=b", "b=a"]))
        #expect(space.cells.map(\.description) == ["a=3 c=3 b=3"])
        #expect(space.source(of: "c")?.name == "a")
    }

    @Test(arguments: [
        (
            ["workers=1,2", "4,8"],
            "'4,8' names no knob, beside knobs given as name=sizes; a chain's sizes are each knob's: write each knob as name=sizes (workers=1,2,4) or name=knob (pool=threads)"
        ),
        (["workers=1", "workers=2"], "knob workers is given twice; give its sizes once (workers=1,2,4)"),
        (
            ["size=1,2"],
            "{size} is filled in by poolsize, so it cannot be a knob; name each knob after what it sets (workers=1,2,4, threads=2,4,8)"
        ),
        (
            ["2x=1"],
            "'2x' is not a knob's name (letters, digits, _ and -, a letter first); write each knob as name=sizes (workers=1,2,4) or name=knob (pool=threads)"
        ),
        (
            ["workers="],
            "knob workers has no sizes; write each knob as name=sizes (workers=1,2,4) or name=knob (pool=threads)"
        ),
        (["workers=0,1"], "knob workers: pool size 0 is not positive; every size must be at least 1"),
        (["pool=pool"], "knob pool is tied to itself; give it sizes (pool=1,2,4) or another knob"),
        (
            ["threads=2", "pool=thread"],
            "pool=thread ties to thread, which is no knob; the knobs are threads and pool; give thread's sizes (thread=1,2,4) or tie to one of them"
        ),
        (["w=1", "a=b", "b=a"], "the ties go round in a circle (a → b → a); give one of these knobs its own sizes"),
        (
            ["w=1", "p=t$"],
            "'t$' is neither sizes nor a knob's name; write each knob as name=sizes (workers=1,2,4) or name=knob (pool=threads)"
        ),
    ])
    func aSpaceThatCannotBeSweptIsOneLine(entries: [String], message: String) {
        #expect(throws: PoolSizeError.invalidParameter(.sizes, message: message)) { try KnobSpace.parse(entries) }
    }

    /// Every knob stands in the command, and every placeholder of the command's own has a knob.
    @Test func theKnobsMatchTheCommandsPlaceholders() throws {
        let line = "gunicorn -w {workers} --threads {threads} -b 127.0.0.1:{port} app:app"
        let placeholders = try ServerCommand.knobPlaceholders(in: line)
        #expect(placeholders == ["workers", "threads"])
        let space = try #require(try KnobSpace.parse(["workers=1,2", "threads=2,4"]))
        try space.check(placeholders: placeholders)
        let extra = try #require(try KnobSpace.parse(["workers=1,2", "threads=2,4", "pool=threads"]))
        #expect(
            throws: PoolSizeError.invalidParameter(
                .sizes,
                message:
                    "knob pool has sizes, but `server` has no {pool}; add {pool} where the command takes it, or drop pool=…"
            )
        ) { try extra.check(placeholders: placeholders) }
        let missing = try #require(try KnobSpace.parse(["workers=1,2"]))
        #expect(
            throws: PoolSizeError.invalidParameter(
                .sizes,
                message:
                    "{threads} in `server` has no sizes; add threads=2,4,8 (a list) or threads=workers (another knob's value)"
            )
        ) { try missing.check(placeholders: placeholders) }
    }

    /// A row of a chain: the outer knobs written in, the inner one left as `{size}`, every other
    /// brace as it was.
    @Test func aRowIsATemplateAgain() throws {
        let line = "sh -c 'POOL={pool} exec srv -w {workers} -t {threads} -p {port} {{x}'"
        let row = try ServerCommand.filling(line, knobs: ["workers": "2", "threads": "{size}", "pool": "{size}"])
        #expect(row == "sh -c 'POOL={size} exec srv -w 2 -t {size} -p {port} {{x}'")
        let command = try ServerCommand(row)
        #expect(command.arguments(size: 8, port: 5000) == ["sh", "-c", "POOL=8 exec srv -w 2 -t 8 -p 5000 {x}"])
    }

    /// recommendation.json writes a cell as an object of its knobs.
    @Test func aCellIsAnObjectOfItsKnobs() throws {
        let cell = KnobCell(names: ["workers", "threads"], values: ["workers": 3, "threads": 8])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(cell), as: UTF8.self) == #"{"threads":8,"workers":3}"#)
        let back = try JSONDecoder().decode(KnobCell.self, from: try encoder.encode(cell))
        #expect(back.description == "threads=8 workers=3")
        let knob = Knob(name: "pool", values: .tied("threads"))
        #expect(try JSONDecoder().decode(Knob.self, from: try encoder.encode(knob)) == knob)
    }
}
