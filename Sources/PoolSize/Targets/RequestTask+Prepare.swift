import Foundation
import PoolSizeHTTP
import PoolSizeModel

extension RequestTask {
    /// The request as each task of poolsize's pools, over a connection each worker keeps.
    func prepare(_ context: TargetContext, timeoutSeconds: Double) throws(PoolSizeError) -> PreparedTarget {
        let target = try self.target(url: url, body: try body())
        let source = try HTTPSource(
            target: target, timeoutSeconds: timeoutSeconds, verification: try verification(target))
        let spec = WorkloadSpec(
            name: "http-" + String(target.host.map { $0.isLetter || $0.isNumber ? $0 : "-" }),
            description: "HTTP: \(target.display)", cpuMicroseconds: 0, waitMicroseconds: 0,
            trialMilliseconds: context.trialMilliseconds ?? 1000)
        return PreparedTarget(
            spec: spec, run: .source(source), isLoopbackServer: target.isLoopback,
            taskTimeoutSeconds: source.timeoutSeconds)
    }

    /// How an https:// server is checked: against the system's CAs, a file of the user's, or not at all.
    private func verification(_ target: HTTPTarget) throws(PoolSizeError) -> HTTPVerification {
        let parameter: PoolSizeError.Parameter? =
            caCertificatePath != nil ? .httpCACertificates : insecure ? .httpInsecure : nil
        guard let parameter else { return .system }
        guard target.url.lowercased().hasPrefix("https://") else {
            throw .invalidParameter(
                parameter,
                message:
                    "applies to https:// URLs, and \(PoolSizeError.Parameter.httpURL.mention) is '\(target.redactedURL)'; drop \(parameter.mention) or use https://"
            )
        }
        if caCertificatePath != nil && insecure {
            throw .invalidParameter(
                .httpInsecure,
                message:
                    "skips the verification \(PoolSizeError.Parameter.httpCACertificates.mention) asks for; give one of them"
            )
        }
        guard let caCertificatePath else { return .none }
        // Read now: libcurl reads it only as each handle connects, and a bad file failed every request.
        try CACertificateFile.check(path: caCertificatePath)
        // Absolute: libcurl reads it when each handle connects, whatever the directory then.
        return .certificateAuthorities(path: URL(fileURLWithPath: caCertificatePath).standardizedFileURL.path)
    }
}
