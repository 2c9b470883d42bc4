extension ObservationSession.Failure {
    /// Why the probe refused the target, as the session's failure.
    package init(_ failure: TargetProbe.Failure) {
        switch failure {
        case let .notFound(pid): self = .processNotFound(pid: pid)
        case .unsupported: self = .unsupported
        case let .exited(pid): self = .processExited(pid: pid)
        case let .kernelThread(pid): self = .kernelThread(pid: pid)
        }
    }
}
