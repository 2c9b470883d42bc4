import CCurl
import Foundation
import PoolSizeModel

extension HTTPSource {
    /// Why a request failed, on one line naming the request; nil when it succeeded.
    func failure(_ code: CURLcode, _ easy: CurlEasy) -> String? {
        switch code {
        case CURLE_OK:
            // libcurl 7.88 returns CURLE_OK, with the status it read, for an answer whose
            // connection closed inside its headers: a failed request, not a success.
            guard easy.headersEnded else {
                return "\(target.display) failed: the connection closed before the end of the answer's headers"
            }
            // 304 Not Modified answers a conditional request (an If-None-Match header): it is
            // the answer, not a pointer to another one.
            let status = easy.status
            guard status >= 300 && status != 304 else { return nil }
            let answered =
                "\(target.display) answered \(status)" + (easy.reason.isEmpty ? "" : " \(Self.printable(easy.reason))")
            if status >= 400 { return answered + easy.saying }
            let location = easy.redirectURL.map { " (to \(Self.printable($0)))" } ?? ""
            return
                "\(answered)\(location); redirects are not followed: give \(PoolSizeError.Parameter.httpURL.mention) the final URL"
        case CURLE_OPERATION_TIMEDOUT:
            return
                "\(target.display) ran past \(PoolSizeError.Parameter.taskTimeout.mention) \(UnitFormat.duration(timeoutSeconds))"
        case CURLE_PEER_FAILED_VERIFICATION:
            let fix: String
            switch verification {
            case .certificateAuthorities(let path):
                fix =
                    "check that \(path) (\(PoolSizeError.Parameter.httpCACertificates.mention)) holds the CA that issued it and that the URL's host is a name in it, or pass \(PoolSizeError.Parameter.httpInsecure.mention) to skip the check"
            case .system, .none:
                fix =
                    "give the CA that issued it with \(PoolSizeError.Parameter.httpCACertificates.mention) FILE, or pass \(PoolSizeError.Parameter.httpInsecure.mention) to skip the check"
            }
            return
                "\(target.display) failed: the server's certificate could not be verified (\(detail(code, easy))); \(fix)"
        case CURLE_SSL_CACERT_BADFILE:
            return
                "\(target.display) failed: the CA certificates could not be loaded (\(detail(code, easy))); \(PoolSizeError.Parameter.httpCACertificates.mention) takes a PEM file of CA certificates"
        default:
            // A connection error names the system's reason ("connection refused"), as
            // strerror gives it, rather than libcurl's longer sentence.
            let osError = easy.osErrno
            if osError != 0 && (code == CURLE_COULDNT_CONNECT || code == CURLE_SEND_ERROR || code == CURLE_RECV_ERROR) {
                return "\(target.display) failed: \(String(cString: strerror(osError)).lowercased())"
            }
            return "\(target.display) failed: \(detail(code, easy))"
        }
    }

    /// libcurl's message for the failure, on one line and at most 200 characters.
    func detail(_ code: CURLcode, _ easy: CurlEasy) -> String {
        let text = easy.errorText.isEmpty ? String(cString: curl_easy_strerror(code)) : easy.errorText
        return String(Self.printable(text).prefix(200))
    }

    /// `text` on one line: line breaks and other control characters become spaces.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? " " : $0 }))
            .trimmingCharacters(in: .whitespaces)
    }
}
