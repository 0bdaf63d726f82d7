import Foundation
import Testing

/// `choreo target`, the demo health endpoint, over real HTTP: failing every K-th check, its
/// body, control at run time, and the redirect loop.
@Suite struct TargetLiveTests {
    @Test func failEveryAndControl() throws {
        let target = try ServerProcess.target(["--fail-every", "2", "--load", "0.4"])
        let http = RawHTTP(port: target.port)
        #expect(try (1...4).map { _ in try http.request("GET", "/health").status } == [200, 503, 200, 503])
        let healthy = try http.request("GET", "/health")
        #expect(healthy.text == #"{"status":"ok","load":0.4}"#)
        let control = try http.request("POST", "/control", body: #"{"status": 418, "padBytes": 3, "failEvery": 0}"#)
        #expect(control.status == 200)
        let settings = try http.request("GET", "/control")
        #expect(settings.text.contains("\"status\":418") && settings.text.contains("\"padBytes\":3"))
        #expect(try http.request("GET", "/health").status == 418)
        // A status HTTP cannot carry is refused, and changes nothing.
        #expect(try http.request("POST", "/control", body: #"{"status": 42}"#).status == 422)
        #expect(try http.request("GET", "/control").text.contains("\"status\":418"))
        #expect(try http.request("POST", "/control", body: #"{"status": 200, "redirect": true}"#).status == 200)
        let redirect = try http.request("GET", "/health")
        #expect(redirect.status == 302 && redirect.headers["location"] == "/health")
    }
}
