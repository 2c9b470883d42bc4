@testable import PoolSizeCLI
import PoolSizeModel
import Testing

/// The library names a setting (`PoolSizeError.Parameter`); the command line's one table spells
/// it as the flag the user types, in errors and in every library text it prints.
struct ParameterFlagsTests {
    /// Each setting has its own flag, and a command of poolsize takes that flag.
    @Test func everyParameterIsAFlagACommandTakes() {
        let flags = PoolSizeError.Parameter.allCases.map(ParameterFlags.flag)
        #expect(Set(flags).count == flags.count)
        let help = PoolSizeCommand.configuration.subcommands.map {
            PoolSizeCommand.helpMessage(for: $0, columns: 400)
        }.joined(separator: "\n")
        for parameter in PoolSizeError.Parameter.allCases {
            let flag = ParameterFlags.flag(parameter)
            #expect(help.contains(flag + " ") || help.contains(flag + "\n"), "no command takes \(flag)")
        }
    }

    /// An error about a setting, and a mention in passing, read as flags; a lone backquote
    /// (a header name's allowed characters) and a backquoted word that names no setting stay.
    @Test func aLibraryMessageIsWordedWithFlags() {
        let error = PoolSizeError.invalidParameter(
            .trialMilliseconds,
            message: "too short for one task; raise it or \(PoolSizeError.Parameter.taskTimeout.mention) 5s")
        #expect(error.description == "error: `trialMilliseconds`: too short for one task; raise it or `taskTimeout` 5s")
        #expect(
            ParameterFlags.word(error.description)
                == "error: --trial-ms: too short for one task; raise it or --task-timeout 5s")
        #expect(
            ParameterFlags.word("letters and !#$%&'*+-.^_`|~ only; `notASetting`")
                == "letters and !#$%&'*+-.^_`|~ only; `notASetting`")
        var lines: [String] = []
        let code = PoolSizeCommand.runMain(["sweep", "--sizes", "0"]) { lines.append($0) }
        #expect(code == 64)
        #expect(lines == ["error: --sizes: pool size 0 is not positive; every size must be at least 1"])
    }

    /// machine.json records the command line with the URL's credentials and the secret headers
    /// redacted, the flags found by the table.
    @Test func aCommandLineKeepsItsShapeWithoutItsSecrets() {
        let line = [
            "poolsize", "sweep", "--http", "http://u:p@127.0.0.1:9/", "--http-header", "Authorization: Bearer t0k3n",
            "--http-header=X-Tenant-Secret: s3cr3t", "--http-secret-header", "X-Tenant-Secret", "--http-header",
            "X-Trace: 7",
            "--http=https://a:b@h/", "--sizes", "1,2",
        ]
        #expect(
            Secrets.commandLine(line, flag: ParameterFlags.flag) == [
                "poolsize", "sweep", "--http", "http://REDACTED@127.0.0.1:9/", "--http-header",
                "Authorization: REDACTED",
                "--http-header=X-Tenant-Secret: REDACTED", "--http-secret-header", "X-Tenant-Secret", "--http-header",
                "X-Trace: 7",
                "--http=https://REDACTED@h/", "--sizes", "1,2",
            ])
    }

    /// Issue 31, finding 13: query values of credential names, and of the names given with
    /// --http-secret-query (separate or joined with `=`), are redacted in the recorded line.
    @Test func aCommandLineLosesItsQueryCredentials() {
        let line = [
            "poolsize", "sweep", "--http", "http://127.0.0.1:9/?api_key=S3CR3T&tenant=acme&page=2",
            "--http-secret-query", "tenant", "--http=http://h/?sig=abc&region=eu", "--http-secret-query=region",
        ]
        #expect(
            Secrets.commandLine(line, flag: ParameterFlags.flag) == [
                "poolsize", "sweep", "--http", "http://127.0.0.1:9/?api_key=REDACTED&tenant=REDACTED&page=2",
                "--http-secret-query", "tenant", "--http=http://h/?sig=REDACTED&region=REDACTED",
                "--http-secret-query=region",
            ])
    }
}
