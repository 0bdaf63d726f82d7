import CCurl
import ChoreoLibraries
import Foundation

/// Alert deliveries over HTTP with libcurl's easy interface: one `POST` per call, on the
/// caller's thread (the arena's delivery thread, never a shared pool), cut at its timeout.
/// Redirects are not followed (a webhook that moved is a failure to fix, not to guess), and at
/// most 64 KiB of the answer is read.
package enum CurlWebhookClient {
    /// A webhook call.
    package struct Request: Sendable {
        package let url: String
        package let contentType: String
        package let body: [UInt8]
        package let headers: [(String, String)]
        package let timeout: Double

        package init(url: String, contentType: String, body: [UInt8], headers: [(String, String)], timeout: Double) {
            self.url = url
            self.contentType = contentType
            self.body = body
            self.headers = headers
            self.timeout = timeout
        }
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
        // COPYPOSTFIELDS copies the bytes (POSTFIELDSIZE of them, set first): nothing outlives this.
        let payload = request.body.isEmpty ? [0] : request.body
        payload.withUnsafeBytes { body in
            _ = ccurl_set_pointer(
                &table, handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: body.baseAddress))
        }
        let code = curl.curl_easy_perform(handle)
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

    /// Reads the answer's body and forgets it, 64 KiB at most.
    private static let discard: ccurl_write_callback = { _, size, count, context in
        size * count
    }
}
