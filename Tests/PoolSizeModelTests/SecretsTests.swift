import PoolSizeModel
import Testing

/// Credentials are sent, never written.
@Suite struct SecretsTests {
    @Test(arguments: [
        ("http://user:pass@127.0.0.1:8080/a?b=1", "http://REDACTED@127.0.0.1:8080/a?b=1"),
        ("https://token@api.example.com/", "https://REDACTED@api.example.com/"),
        ("http://127.0.0.1:8080/mail@home", "http://127.0.0.1:8080/mail@home"),
        ("http://127.0.0.1/", "http://127.0.0.1/"),
        // URLs an error quotes because they do not parse: masked from the text alike.
        ("http://alice:pa55@127.0.0.1:99999/", "http://REDACTED@127.0.0.1:99999/"),
        ("http://u:p@bad host/x", "http://REDACTED@bad host/x"),
        ("http://a@b:c@h/", "http://REDACTED@h/"),
        ("not a url@all", "not a url@all"),
    ])
    func userinfoIsMasked(url: String, expected: String) {
        #expect(Secrets.url(url) == expected)
    }

    /// Issue 31, finding 13: a key or token in the query string was written everywhere the URL
    /// was. Values of known credential names (any case, `-`/`_` and percent-encoding aside) and
    /// of the names marked are masked; other parameters, the path and the userinfo rule stay.
    @Test(arguments: [
        ("http://127.0.0.1:8080/?api_key=S3CR3T", "http://127.0.0.1:8080/?api_key=REDACTED"),
        ("http://127.0.0.1/v1?page=2&apiKey=S3CR3T&q=a", "http://127.0.0.1/v1?page=2&apiKey=REDACTED&q=a"),
        (
            "http://127.0.0.1/?API-KEY=S3CR3T;access_token=T0K",
            "http://127.0.0.1/?API-KEY=REDACTED;access_token=REDACTED"
        ),
        ("http://127.0.0.1/?api%5Fkey=S3CR3T", "http://127.0.0.1/?api%5Fkey=REDACTED"),
        (
            "https://s3.example/b/o?X-Amz-Credential=AK%2F1&X-Amz-Signature=ab12&X-Amz-Expires=60",
            "https://s3.example/b/o?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED&X-Amz-Expires=60"
        ),
        ("http://u:p@127.0.0.1/?token=T0K&x=1", "http://REDACTED@127.0.0.1/?token=REDACTED&x=1"),
        ("http://127.0.0.1/cb#access_token=T0K&state=s", "http://127.0.0.1/cb#access_token=REDACTED&state=s"),
        ("http://127.0.0.1/?page=2&keyboard=us", "http://127.0.0.1/?page=2&keyboard=us"),
        ("http://127.0.0.1/?token", "http://127.0.0.1/?token"),
        // Unparseable, quoted by an error: masked from the text alike.
        ("http://127.0.0.1:99999/?password=hunter2", "http://127.0.0.1:99999/?password=REDACTED"),
    ])
    func credentialQueryValuesAreMasked(url: String, expected: String) {
        #expect(Secrets.url(url) == expected)
    }

    @Test func markedQueryParametersAreMaskedToo() {
        #expect(
            Secrets.url("http://127.0.0.1/?tenant=acme&page=2", marked: ["Tenant"])
                == "http://127.0.0.1/?tenant=REDACTED&page=2")
        #expect(Secrets.url("http://127.0.0.1/?tenant=acme") == "http://127.0.0.1/?tenant=acme")
    }

    @Test func credentialHeadersAreMaskedOthersKept() {
        #expect(Secrets.header("Authorization: Bearer abc.def") == "Authorization: REDACTED")
        #expect(Secrets.header("cookie: session=1") == "cookie: REDACTED")
        #expect(Secrets.header("X-Api-Key:k") == "X-Api-Key: REDACTED")
        #expect(Secrets.header("X-Trace: 1") == "X-Trace: 1")
        #expect(Secrets.header("X-Tenant-Secret: s", marked: ["x-tenant-secret"]) == "X-Tenant-Secret: REDACTED")
    }

    /// A server's or load tool's command keeps its words; each URL in it is masked, quoted or not.
    @Test func urlsInACommandAreMasked() {
        #expect(
            Secrets.commandText("wrk -t1 -c64 'http://u:pw@127.0.0.1:{port}/?token=abc' --latency")
                == "wrk -t1 -c64 'http://REDACTED@127.0.0.1:{port}/?token=REDACTED' --latency")
        #expect(
            Secrets.commandText("pgbench postgresql://app:secret@127.0.0.1/db -c {size}")
                == "pgbench postgresql://REDACTED@127.0.0.1/db -c {size}")
        #expect(Secrets.commandText("gunicorn -b 127.0.0.1:{port} app:app") == "gunicorn -b 127.0.0.1:{port} app:app")
        let recorded = Secrets.commandLine(
            ["poolsize", "sweep", "--load", "wrk http://u:pw@127.0.0.1:9/"], flag: { "--" + $0.rawValue })
        #expect(recorded == ["poolsize", "sweep", "--load", "wrk http://REDACTED@127.0.0.1:9/"])
    }
}

/// A libpq connection string keeps no password, as a URL or as `key=value` pairs, and `--postgres`'s
/// value is masked in the recorded command line.
@Suite struct ConninfoSecretsTests {
    @Test func aConnectionStringKeepsNoPassword() {
        #expect(Secrets.conninfo("postgresql://app:hunter2@db:5432/shop") == "postgresql://REDACTED@db:5432/shop")
        #expect(
            Secrets.conninfo("postgresql://db/shop?user=app&password=hunter2")
                == "postgresql://db/shop?user=app&password=REDACTED")
        #expect(
            Secrets.conninfo("host=db user=app PASSWORD=hunter2 dbname=shop")
                == "host=db user=app password=REDACTED dbname=shop")
        #expect(Secrets.conninfo("host=db dbname=shop") == "host=db dbname=shop")
        let line = Secrets.commandLine(["poolsize", "sweep", "--postgres", "postgresql://app:hunter2@db/shop"]) {
            $0 == .postgres ? "--postgres" : "--\($0.rawValue)"
        }
        #expect(line == ["poolsize", "sweep", "--postgres", "postgresql://REDACTED@db/shop"])
    }
}

/// A task's command (`--exec`, `--exec-baseline`) is recorded as the others are: URLs masked, and
/// the values of credential assignments (an environment variable, a libpq `password=`, a
/// `--token=` option); other `name=value` words kept.
@Suite struct CommandCredentialTests {
    @Test(arguments: [
        (
            "psql postgresql://postgres:PW@127.0.0.1:5432/bench -c 'SELECT 1'",
            "psql postgresql://REDACTED@127.0.0.1:5432/bench -c 'SELECT 1'"
        ),
        ("env PGPASSWORD=PW psql -h db", "env PGPASSWORD=REDACTED psql -h db"),
        ("psql 'host=db password=PW dbname=x'", "psql 'host=db password=REDACTED dbname=x'"),
        ("curl --token=PW https://x/", "curl --token=REDACTED https://x/"),
        ("deploy GITHUB_TOKEN=PW API_KEY=PW2 mode=fast", "deploy GITHUB_TOKEN=REDACTED API_KEY=REDACTED mode=fast"),
        ("psql postgresql://db/x?password=PW", "psql postgresql://db/x?password=REDACTED"),
        ("sort -t= -k2 file", "sort -t= -k2 file"),
    ])
    func credentialsInACommandAreMasked(command: String, recorded: String) {
        #expect(Secrets.commandText(command) == recorded)
    }

    @Test func execAndItsBaselineAreMaskedInTheCommandLine() {
        let line = Secrets.commandLine(
            [
                "poolsize", "sweep", "--exec", "psql postgresql://u:PW@db/x",
                "--exec-baseline=psql postgresql://u:PW@db/x",
            ]
        ) {
            switch $0 {
            case .command: return "--exec"
            case .commandBaseline: return "--exec-baseline"
            default: return "--\($0.rawValue)"
            }
        }
        #expect(
            line == [
                "poolsize", "sweep", "--exec", "psql postgresql://REDACTED@db/x",
                "--exec-baseline=psql postgresql://REDACTED@db/x",
            ])
    }
}

/// libpq quotes the part of a connection string it cannot parse, the password with it: every
/// password of the string, as written and percent-decoded, is masked in its message.
@Suite struct LibpqMessageSecretsTests {
    @Test func passwordsAreFoundInEachForm() {
        #expect(Secrets.passwords(inConninfo: "postgresql://postgres:S3cr3tPW@[::1") == ["S3cr3tPW"])
        #expect(Secrets.passwords(inConninfo: "postgresql://u:a%40b@db/x?password=q") == ["a%40b", "a@b", "q"])
        #expect(Secrets.passwords(inConninfo: "host=db password = 'it\\'s x' port=1") == ["it's x"])
        #expect(Secrets.passwords(inConninfo: "host=db PASSWORD=plain") == ["plain"])
        #expect(Secrets.passwords(inConninfo: "host=db user=app").isEmpty)
    }

    @Test(arguments: [
        (
            "postgresql://postgres:S3cr3tPW@[::1",
            "end of string reached when looking for matching \"]\" in IPv6 host address in URI: \"postgresql://postgres:S3cr3tPW@[::1\"",
            "end of string reached when looking for matching \"]\" in IPv6 host address in URI: \"postgresql://REDACTED@[::1\""
        ),
        (
            "postgresql://postgres:S3cr3tPW%ZZ@127.0.0.1/x", "invalid percent-encoded token: \"S3cr3tPW%ZZ\"",
            "invalid percent-encoded token: \"REDACTED\""
        ),
    ])
    func libpqMessagesAreScrubbed(conninfo: String, message: String, shown: String) {
        #expect(Secrets.scrub(message, conninfo: conninfo) == shown)
    }
}
