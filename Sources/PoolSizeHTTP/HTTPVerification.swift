/// How the certificate of an `https://` target is checked (`--http-cacert`, `--http-insecure`).
public enum HTTPVerification: Equatable, Sendable {
    /// Against the system's CA certificates (libcurl's default bundle), host name included.
    case system
    /// Against the CA certificates in this PEM file instead, host name included: a server
    /// whose certificate a private or self-signed CA issued.
    case certificateAuthorities(path: String)
    /// Not at all: any certificate and any host name is accepted.
    case none
}
