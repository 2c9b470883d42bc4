import Foundation
import PoolSizeModel
import Testing

/// `stop-signal`'s names: with or without `SIG`, any case, each to its number here; anything
/// else one line naming the setting and the names it takes.
@Suite struct ServerStopSignalTests {
    @Test(arguments: [
        ("INT", "INT", SIGINT), ("SIGQUIT", "QUIT", SIGQUIT), (" term ", "TERM", SIGTERM), ("sigkill", "KILL", SIGKILL),
        ("Hup", "HUP", SIGHUP), ("USR2", "USR2", SIGUSR2),
    ])
    func aNamedSignalIsItsNumber(text: String, name: String, number: Int32) throws {
        let signal = try ServerStopSignal(text)
        #expect(signal.name == name && signal.number == number)
    }

    @Test(arguments: ["STOP", "9", "", "SIG"])
    func anythingElseIsOneLine(text: String) {
        #expect(throws: PoolSizeError.self) { try ServerStopSignal(text) }
        do {
            _ = try ServerStopSignal(text)
        } catch {
            #expect(
                error.description
                    == "error: `stopSignal`: '\(text)' is no signal a server is stopped with; give one of TERM, INT, QUIT, HUP, USR1, USR2 or KILL (SIGINT and INT are the same)"
            )
        }
    }
}
