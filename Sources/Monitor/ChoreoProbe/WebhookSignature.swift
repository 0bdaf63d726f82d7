import CCrypto
import ChoreoLibraries

/// HMAC-SHA256 by OpenSSL's libcrypto (loaded when the first delivery is signed), for the
/// `X-Choreo-Signature` header of alert webhooks (docs/alerts.md).
package enum WebhookSignature {
    package static let library = SharedLibrary.load("libcrypto.so.3", package: "libssl3", bind: ccrypto_bind)

    /// HMAC-SHA256 of `message` with `key`, or why libcrypto cannot be used.
    package static func hmacSHA256(key: [UInt8], message: [UInt8]) -> Result<[UInt8], LibraryUnavailable> {
        switch library {
        case .failure(let unavailable): return .failure(unavailable)
        case .success(let crypto):
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            let done = key.withUnsafeBytes { keyBytes in
                message.withUnsafeBufferPointer { messageBytes in
                    crypto.HMAC(
                        crypto.EVP_sha256(), keyBytes.baseAddress, Int32(key.count), messageBytes.baseAddress,
                        message.count, &digest, &length)
                }
            }
            guard done != nil, length == 32 else {
                return .failure(
                    LibraryUnavailable(soname: "libcrypto.so.3", debianPackage: "libssl3", reason: "HMAC failed"))
            }
            return .success(digest)
        }
    }

    /// The header's value: `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`.
    package static func header(secret: String, timestamp: Int64, body: [UInt8]) -> Result<String, LibraryUnavailable> {
        hmacSHA256(key: Array(secret.utf8), message: Array("\(timestamp).".utf8) + body).map { digest in
            "sha256=" + digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }
}
