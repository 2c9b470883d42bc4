import Foundation
import Testing

/// `--http-cacert` is read before anything is sent (a dry run reads it too): a file that is
/// empty, garbage, a key or a certificate cut short is one line naming it and what it holds
/// (exit 65), where it was found only by failing every request of the sweep (exit 5). The
/// certificates and keys are made by openssl in a scratch directory.
@Suite(.serialized)
struct CACertificateCommandTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-cacert-\(UUID())")

    /// A self-signed certificate `cert.pem` (also as DER, `cert.der`), its key `key.pem` and
    /// public key `pub.pem`, in `scratch`.
    func makeFiles() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let openssl = try #require(NginxProcess.openssl)
        try NginxProcess.runQuietly(
            openssl,
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                file("key.pem"), "-out", file("cert.pem"), "-days", "1", "-subj", "/CN=127.0.0.1",
            ])
        try NginxProcess.runQuietly(
            openssl, ["x509", "-in", file("cert.pem"), "-outform", "der", "-out", file("cert.der")])
        try NginxProcess.runQuietly(openssl, ["pkey", "-in", file("key.pem"), "-pubout", "-out", file("pub.pem")])
    }

    func file(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: file(name), atomically: true, encoding: .utf8)
    }

    func dryRun(_ caFile: String) throws -> (code: Int32, stdout: String, stderr: String) {
        try EndToEndTests.run(
            ["sweep", "--http", "https://127.0.0.1:9/", "--http-cacert", caFile, "--dry-run"], directory: scratch)
    }

    @Test func filesWithoutAUsableCertificateAreRefusedUpFront() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try makeFiles()
        let certificate = try String(contentsOfFile: file("cert.pem"), encoding: .utf8)
        try write("empty.pem", "")
        try write("garbage.pem", "garbage\n")
        try write("cut.pem", String(certificate.prefix(200)))
        // Valid base64 throughout, but the first line reversed: the DER no longer parses.
        var lines = certificate.split(separator: "\n").map(String.init)
        lines[1] = String(lines[1].reversed())
        try write("damaged.pem", lines.joined(separator: "\n") + "\n")
        try write("notbase64.pem", "-----BEGIN CERTIFICATE-----\nnot*base64!\n-----END CERTIFICATE-----\n")
        let fix = "--http-cacert takes a PEM file of the CA certificates that issued the server's\n"
        let cases: [(String, Int32, String)] = [
            ("key.pem", 65, "holds a private key (-----BEGIN PRIVATE KEY-----), not a certificate; "),
            ("pub.pem", 65, "holds a public key (-----BEGIN PUBLIC KEY-----), not a certificate; "),
            (
                "cert.der", 65,
                "holds binary data, not PEM text (a DER certificate? 'openssl x509 -inform der -in FILE -out FILE.pem' converts one); "
            ),
            ("empty.pem", 65, "is empty; "),
            ("garbage.pem", 65, "holds no PEM certificate (no -----BEGIN CERTIFICATE----- line); "),
            ("cut.pem", 65, "its CERTIFICATE block (line 1) has no -----END CERTIFICATE----- line; "),
            (
                "damaged.pem", 65,
                "certificate 1 (line 1) is not an X.509 certificate (its DER structure does not parse); "
            ),
            ("notbase64.pem", 65, "certificate 1 (line 1) is not base64 text; "),
            ("missing.pem", 66, "not found; "),
        ]
        for (name, code, problem) in cases + [(scratch.path, 65, "is a directory; ")] {
            let path = name.hasPrefix("/") ? name : file(name)
            let result = try dryRun(path)
            #expect(result.code == code, "\(name): \(result.stderr)")
            #expect(result.stderr == "error: \(path): \(problem)\(fix)", "\(name)")
            #expect(result.stdout.isEmpty, "\(name)")
        }
    }

    /// A certificate, alone or after its key in one file, passes the check.
    @Test func aCertificateFilePasses() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        try makeFiles()
        let bundle =
            try String(contentsOfFile: file("key.pem"), encoding: .utf8)
            + String(contentsOfFile: file("cert.pem"), encoding: .utf8)
        try write("bundle.pem", bundle)
        for name in ["cert.pem", "bundle.pem"] {
            let result = try dryRun(file(name))
            #expect(result.code == 0, "\(name): \(result.stderr)")
            #expect(result.stdout.hasPrefix("dry run: "), "\(name)")
        }
    }
}
