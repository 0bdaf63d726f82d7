import CCurl
import ChoreoLibraries
import Foundation

/// Alert deliveries over HTTP with libcurl's easy interface: one `POST` per call, on the
/// caller's thread (the arena's delivery thread, never a shared pool), cut at its timeout.
/// Redirects are not followed (a webhook that moved is a failure to fix, not to guess), and at
/// most 64 KiB of the answer is read. Every address libcurl is about to connect to, once the
/// host name is resolved, goes through the request's ``Request/refuse`` first: a webhook whose
/// name resolves to a refused address (link-local, say) gets no connection.
package enum CurlWebhookClient {
    /// A webhook call.
    package struct Request: Sendable {
        package let url: String
        package let contentType: String
        package let body: [UInt8]
        package let headers: [(String, String)]
        package let timeout: Double
        /// Why an address (4 bytes of IPv4 or 16 of IPv6) may not be connected to, or nil
        /// when it may (``WebhookTarget``'s policy for the channel).
        package let refuse: @Sendable ([UInt8]) -> String?

        package init(
            url: String, contentType: String, body: [UInt8], headers: [(String, String)], timeout: Double,
            refuse: @escaping @Sendable ([UInt8]) -> String?
        ) {
            self.url = url
            self.contentType = contentType
            self.body = body
            self.headers = headers
            self.timeout = timeout
            self.refuse = refuse
        }
    }

    /// What the socket callback reads and writes during one transfer.
    final class SocketCheck {
        let refuse: @Sendable ([UInt8]) -> String?
        /// Why the last address was refused; nil when none was.
        var refusal: String?

        init(refuse: @escaping @Sendable ([UInt8]) -> String?) { self.refuse = refuse }
    }

    /// What came back: an HTTP status, or why none did.
    package enum Outcome: Sendable, Equatable {
        case answered(status: Int)
        case failed(String)

        /// A 2xx answer.
        package var succeeded: Bool {
            if case .answered(let status) = self { return (200...299).contains(status) }
            return false
        }

        package var description: String {
            switch self {
            case .answered(let status): "HTTP \(status)"
            case .failed(let reason): reason
            }
        }
    }

    /// Posts `request` and waits for the answer (at most its timeout).
    package static func post(_ request: Request) -> Outcome {
        let curl: BoundFunctions<ccurl_functions>
        switch CurlProbeClient.library {
        case .success(let functions): curl = functions
        case .failure(let unavailable): return .failed(unavailable.description)
        }
        guard let handle = curl.curl_easy_init() else { return .failed("curl_easy_init failed") }
        defer { curl.curl_easy_cleanup(handle) }
        var table = curl.table
        var headers: UnsafeMutablePointer<curl_slist>?
        for line in ["Content-Type: \(request.contentType)", "Expect:", "User-Agent: choreo-alerts"]
            + request.headers.map({ "\($0.0): \($0.1)" })
        {
            headers = curl.curl_slist_append(headers, line)
        }
        defer { curl.curl_slist_free_all(headers) }
        let timeoutMs = max(1, Int(request.timeout * 1000))
        _ = ccurl_set_string(&table, handle, CURLOPT_URL, request.url)
        _ = ccurl_set_long(&table, handle, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_set_long(&table, handle, CURLOPT_FORBID_REUSE, 1)
        _ = ccurl_set_long(&table, handle, CURLOPT_TIMEOUT_MS, timeoutMs)
        _ = ccurl_set_long(&table, handle, CURLOPT_CONNECTTIMEOUT_MS, timeoutMs)
        _ = ccurl_set_string(&table, handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = ccurl_set_long(&table, handle, CURLOPT_POST, 1)
        _ = ccurl_set_long(&table, handle, CURLOPT_POSTFIELDSIZE, request.body.count)
        _ = ccurl_set_pointer(&table, handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers))
        _ = ccurl_set_write_function(&table, handle, discard)
        let check = SocketCheck(refuse: request.refuse)
        _ = ccurl_set_opensocket_function(&table, handle, openSocket)
        _ = ccurl_set_pointer(&table, handle, CURLOPT_OPENSOCKETDATA, Unmanaged.passUnretained(check).toOpaque())
        // COPYPOSTFIELDS copies the bytes (POSTFIELDSIZE of them, set first): nothing outlives this.
        let payload = request.body.isEmpty ? [0] : request.body
        payload.withUnsafeBytes { body in
            _ = ccurl_set_pointer(
                &table, handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: body.baseAddress))
        }
        let code = withExtendedLifetime(check) { curl.curl_easy_perform(handle) }
        if code != CURLE_OK, let refusal = check.refusal { return .failed("refused: the webhook \(refusal)") }
        guard code == CURLE_OK else {
            return .failed(
                code == CURLE_OPERATION_TIMEDOUT
                    ? "timed out"
                    : curl.curl_easy_strerror(code).map { String(cString: $0) } ?? "curl error \(code.rawValue)")
        }
        var status = 0
        _ = ccurl_get_long(&table, handle, CURLINFO_RESPONSE_CODE, &status)
        return .answered(status: status)
    }

    /// libcurl's socket opener: the address it is about to connect to, refused (no socket, so
    /// libcurl tries the next address or fails) or given a socket.
    static let openSocket: ccurl_opensocket_callback = { context, _, address in
        guard let context, let address else { return CURL_SOCKET_BAD }
        let check = Unmanaged<SocketCheck>.fromOpaque(context).takeUnretainedValue()
        let family = address.pointee.family
        let length = Int(address.pointee.addrlen)
        let raw = UnsafeRawPointer(address) + MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr)!
        let bytes: [UInt8]
        if family == AF_INET, length >= MemoryLayout<sockaddr_in>.size {
            bytes = withUnsafeBytes(of: raw.loadUnaligned(as: sockaddr_in.self).sin_addr) { Array($0) }
        } else if family == AF_INET6, length >= MemoryLayout<sockaddr_in6>.size {
            bytes = withUnsafeBytes(of: raw.loadUnaligned(as: sockaddr_in6.self).sin6_addr) { Array($0) }
        } else {
            check.refusal = "targets an address of family \(family), neither IPv4 nor IPv6"
            return CURL_SOCKET_BAD
        }
        if let reason = check.refuse(bytes) {
            check.refusal = reason
            return CURL_SOCKET_BAD
        }
        return socket(
            family, address.pointee.socktype | Int32(bitPattern: UInt32(SOCK_CLOEXEC.rawValue)),
            address.pointee.protocol)
    }

    /// Reads the answer's body and forgets it, 64 KiB at most.
    private static let discard: ccurl_write_callback = { _, size, count, context in
        size * count
    }
}
