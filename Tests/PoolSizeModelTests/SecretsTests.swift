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

    @Test func credentialHeadersAreMaskedOthersKept() {
        #expect(Secrets.header("Authorization: Bearer abc.def") == "Authorization: REDACTED")
        #expect(Secrets.header("cookie: session=1") == "cookie: REDACTED")
        #expect(Secrets.header("X-Api-Key:k") == "X-Api-Key: REDACTED")
        #expect(Secrets.header("X-Trace: 1") == "X-Trace: 1")
        #expect(Secrets.header("X-Tenant-Secret: s", marked: ["x-tenant-secret"]) == "X-Tenant-Secret: REDACTED")
    }
}
