import PoolSizeModel
import Testing

/// `pg_stat_activity` rows to classes: the wait event's type first, then the state.
struct WaitClassTests {
    @Test(arguments: [
        ("active", "Lock", WaitClass?.some(.lock)),
        ("active", "LWLock", .lwlock),
        ("active", "IO", .io),
        ("idle", "Client", .client),
        ("idle in transaction", "Client", .client),
        ("active", "Client", .client),
        ("active", "Timeout", .timeout),
        ("active", "", .cpu),
        ("active", "IPC", .other),
        ("active", "Activity", .other),
        ("idle", "", .client),
        ("", "", nil),
        ("disabled", "", nil),
    ])
    func classifies(state: String, type: String, expected: WaitClass?) {
        #expect(WaitClass(state: state, waitEventType: type) == expected)
    }

    /// The errors' cell reads back as written; a part that is not `STATE:COUNT` is refused.
    @Test func errorsTextReadsBack() {
        let figures = DatabaseFigures(errorsBySQLState: ["40P01": 3, "40001": 12, "22012": 3])
        #expect(figures.errorsText == "40001:12 22012:3 40P01:3")
        #expect(DatabaseFigures.errors(from: figures.errorsText) == figures.errorsBySQLState)
        #expect(DatabaseFigures.errors(from: "") == [:])
        #expect(DatabaseFigures.errors(from: "40001") == nil)
        #expect(DatabaseFigures.errors(from: "40001:x") == nil)
    }
}
