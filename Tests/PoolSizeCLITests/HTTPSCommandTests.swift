import Foundation
import Testing

/// `sweep --http https://…` against nginx on 127.0.0.1 with a self-signed certificate: verified
/// with `--http-cacert`, refused without it (the message says which flag fixes it), accepted
/// unverified with `--http-insecure`.
/// A missing nginx fails these tests (its init throws), never skips them: .ci/run installs it.
@Suite(.serialized)
struct HTTPSCommandTests {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("poolsize-https-\(UUID())")

    func sweep(_ arguments: [String]) throws -> (code: Int32, stdout: String, stderr: String) {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return try EndToEndTests.run(
            ["sweep"] + arguments + HTTPCommandTests.quick + [
                "--out", scratch.appendingPathComponent("run").path, "--plots",
                scratch.appendingPathComponent("plots").path,
            ], directory: scratch)
    }

    /// Every trial of the run, each without errors.
    func trialsWithoutErrors() throws -> Bool {
        let lines = try String(contentsOf: scratch.appendingPathComponent("run/trials.csv"), encoding: .utf8).split(
            separator: "\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false)
        let errors = try #require(header.firstIndex(of: "errors"))
        return lines.count == 3
            && lines.dropFirst().allSatisfy {
                $0.split(separator: ",", omittingEmptySubsequences: false)[errors] == "0"
            }
    }

    @Test func theServerIsVerifiedWithTheGivenCA() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let nginx = try NginxProcess()
        defer { nginx.stop() }
        let result = try sweep(["--http", nginx.url, "--http-cacert", nginx.certificate])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try trialsWithoutErrors())
    }

    @Test func anUnverifiedServerStopsTheSweepNamingTheFlags() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let nginx = try NginxProcess()
        defer { nginx.stop() }
        let result = try sweep(["--http", nginx.url])
        #expect(result.code == 5)
        #expect(
            result.stderr.contains(
                ": GET \(nginx.url) failed: the server's certificate could not be verified (SSL certificate problem: self-signed certificate); give the CA that issued it with --http-cacert FILE, or pass --http-insecure to skip the check; fix it first\n"
            ), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func insecureSkipsTheCheck() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let nginx = try NginxProcess()
        defer { nginx.stop() }
        let result = try sweep(["--http", nginx.url, "--http-insecure"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try trialsWithoutErrors())
    }

    /// A CA file that did not issue the server's certificate: refused, naming the file.
    @Test func anotherCAIsRefusedNamingTheFile() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let nginx = try NginxProcess()
        defer { nginx.stop() }
        let other = try NginxProcess()
        defer { other.stop() }
        let result = try sweep(["--http", nginx.url, "--http-cacert", other.certificate])
        #expect(result.code == 5)
        #expect(result.stderr.contains("failed: the server's certificate could not be verified ("), "\(result.stderr)")
        #expect(
            result.stderr.contains("check that \(other.certificate) (--http-cacert) holds the CA that issued it"),
            "\(result.stderr)")
    }
}
