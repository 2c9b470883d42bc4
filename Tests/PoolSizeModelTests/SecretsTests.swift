import PoolSizeModel
import Testing

/// Credentials are sent, never written.
@Suite struct SecretsTests {
    @Test(arguments: [
        ("http://user:pass@127.0.0.1:8080/a?b=1", "http://REDACTED@127.0.0.1:8080/a?b=1"),
        ("https://token@api.example.com/", "https://REDACTED@api.example.com/"),
        ("http://127.0.0.1:8080/mail@home", "http://127.0.0.1:8080/mail@home"),
        ("http://127.0.0.1/", "http://127.0.0.1/"),
    ])
    func userinfoIsMasked(url: String, expected: String) {
        #expect(Secrets.url(url) == expected)
    }

    @Test func credentialHeadersAreMaskedOthersKept() {
        #expect(Secrets.header("Authorization: Bearer abc.def") == "Authorization: REDACTED")
        #expect(Secrets.header("cookie: session=1") == "cookie: REDACTED")
        #expect(Secrets.header("X-Api-Key:k") == "X-Api-Key: REDACTED")
        #expect(Secrets.header("X-Trace: 1") == "X-Trace: 1")
        #expect(Secrets.header("X-Tenant-Secret: s", marked: ["x-tenant-secret"]) == "X-Tenant-Secret: REDACTED")
    }

    @Test func aCommandLineKeepsItsShapeWithoutItsSecrets() {
        let line = [
            "poolsize", "sweep", "--http", "http://u:p@127.0.0.1:9/", "--http-header", "Authorization: Bearer t0k3n",
            "--http-header=X-Tenant-Secret: s3cr3t", "--http-secret-header", "X-Tenant-Secret", "--http-header",
            "X-Trace: 7",
            "--http=https://a:b@h/", "--sizes", "1,2",
        ]
        #expect(
            Secrets.commandLine(line) == [
                "poolsize", "sweep", "--http", "http://REDACTED@127.0.0.1:9/", "--http-header",
                "Authorization: REDACTED",
                "--http-header=X-Tenant-Secret: REDACTED", "--http-secret-header", "X-Tenant-Secret", "--http-header",
                "X-Trace: 7",
                "--http=https://REDACTED@h/", "--sizes", "1,2",
            ])
    }
}
