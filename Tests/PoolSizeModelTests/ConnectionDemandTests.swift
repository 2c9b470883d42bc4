import PoolSizeModel
import Testing

/// The connections a chain's cell opens against what the database allows its role.
@Suite struct ConnectionDemandTests {
    let space = KnobSpace(checked: [
        Knob(name: "workers", values: .list([1, 2, 4])), Knob(name: "threads", values: .list([4, 8])),
        Knob(name: "pool", values: .tied("threads")),
    ])

    /// max_connections 30, 3 reserved for superusers: 27 for an ordinary role.
    @Test func aCellPastTheLimitIsExcludedInOneSentence() throws {
        let demand = try ConnectionDemand.parse("workers * pool + 2", space: space)
        let limit = ConnectionLimit(maxConnections: 30, reserved: 3, roleLimit: nil, inUse: 0, roleInUse: 0)
        #expect(limit.allowed == 27)
        let cells = space.cells
        #expect(cells.map(demand.connections) == [6, 10, 10, 18, 18, 34])
        #expect(
            cells.compactMap { demand.exclusion($0, limit: limit) } == [
                "workers=4 threads=8 pool=8: workers × pool + 2 needs at least 34 connections; the server allows 27 for this role (max_connections 30, 3 reserved for superusers)"
            ])
    }

    /// Others' connections and the role's own limit count too.
    @Test func othersAndTheRolesLimitLowerIt() {
        var limit = ConnectionLimit(maxConnections: 100, reserved: 3, roleLimit: nil, inUse: 10, roleInUse: 0)
        #expect(limit.allowed == 87)
        limit.roleLimit = 20
        limit.roleInUse = 4
        #expect(limit.allowed == 16)
        #expect(
            limit.explanation
                == "max_connections 100, 3 reserved for superusers, 10 in use by others, the role's limit 20 with 4 in use"
        )
        limit.roleLimit = 0
        #expect(limit.allowed == 0)
    }

    @Test(arguments: [
        (
            "workers*",
            "'' is no knob; the knobs are workers, threads and pool (write the knobs whose product is the connections, with an optional overflow: workers*pool+2)"
        ),
        (
            "workers*conns",
            "'conns' is no knob; the knobs are workers, threads and pool (write the knobs whose product is the connections, with an optional overflow: workers*pool+2)"
        ),
        (
            "workers*pool+x",
            "'x' is not a whole number of connections; write the knobs whose product is the connections, with an optional overflow: workers*pool+2"
        ),
        (
            "+2",
            "'+2' is not a product of knobs; write the knobs whose product is the connections, with an optional overflow: workers*pool+2"
        ),
    ])
    func aDemandThatCannotBeReadIsOneLine(text: String, message: String) {
        #expect(throws: PoolSizeError.invalidParameter(.databaseConnections, message: message)) {
            try ConnectionDemand.parse(text, space: space)
        }
    }
}
