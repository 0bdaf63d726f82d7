import ChoreoTransport
import Glibc

/// A child process run to completion under a wall-clock deadline: its standard input written
/// from memory, its standard output and error read into memory (each bounded), all through one
/// `poll(2)` loop on the calling thread, no lock held. Killed (SIGKILL) at the deadline or when
/// its output passes the bound. What `Process` is to Foundation, without its run loop.
package struct HelperProcess {
    package enum Ending: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it (SIGSEGV from a crash, SIGXCPU or SIGKILL from its CPU limit).
        case signalled(Int32)
        /// It was still running at the deadline; killed.
        case timedOut
        /// It wrote more than the output bound; killed.
        case outputTooLarge
        /// It could not be started: errno.
        case notStarted(Int32)
        /// The caller's ``Cancellation`` was set (its client hung up); killed.
        case cancelled
    }

    package struct Outcome: Sendable {
        package var ending: Ending
        package var output: [UInt8]
        package var errorOutput: [UInt8]
    }

    /// Runs `path` with `arguments`, `input` on its standard input, for at most `deadline` seconds,
    /// and no longer than `cancellation` stays unset (it is looked at every 100 ms at most).
    package static func run(
        _ path: String, _ arguments: [String], input: [UInt8], deadline: Double, outputLimit: Int,
        cancellation: Cancellation? = nil
    ) -> Outcome {
        // A child that exits before reading all its input makes the write fail with EPIPE; the
        // SIGPIPE that comes with it is this thread's and is blocked here, then taken off
        // (it would end the whole process otherwise).
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var none = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &none)
            }
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        }
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        var errorsFromChild: [Int32] = [0, 0]
        guard makePipe(&toChild) == 0 else { return Outcome(ending: .notStarted(errno), output: [], errorOutput: []) }
        guard makePipe(&fromChild) == 0 else {
            close(toChild[0])
            close(toChild[1])
            return Outcome(ending: .notStarted(errno), output: [], errorOutput: [])
        }
        guard makePipe(&errorsFromChild) == 0 else {
            for fd in toChild + fromChild { close(fd) }
            return Outcome(ending: .notStarted(errno), output: [], errorOutput: [])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorsFromChild[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        // The child starts with default signal handling and nothing blocked (the server blocks
        // SIGINT and SIGTERM in its threads; SIGPIPE may be ignored).
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGXCPU] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let environment: [UnsafeMutablePointer<CChar>?] = [strdup("LC_ALL=C"), nil]
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environment)
        for pointer in argv + environment { free(pointer) }
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        close(toChild[0])
        close(fromChild[1])
        close(errorsFromChild[1])
        guard spawned == 0 else {
            close(toChild[1])
            close(fromChild[0])
            close(errorsFromChild[0])
            return Outcome(ending: .notStarted(spawned), output: [], errorOutput: [])
        }
        for fd in [toChild[1], fromChild[0], errorsFromChild[0]] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        var output: [UInt8] = []
        var errorOutput: [UInt8] = []
        var written = 0
        var inputOpen = true
        var outputOpen = true
        var errorsOpen = true
        if input.isEmpty {
            close(toChild[1])
            inputOpen = false
        }
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var ending: Ending?
        var buffer = [UInt8](repeating: 0, count: 65536)
        while outputOpen || errorsOpen {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let elapsed = Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9
            if elapsed >= deadline {
                ending = .timedOut
                break
            }
            if cancellation?.isCancelled == true {
                ending = .cancelled
                break
            }
            var fds: [pollfd] = []
            if inputOpen { fds.append(pollfd(fd: toChild[1], events: Int16(POLLOUT), revents: 0)) }
            if outputOpen { fds.append(pollfd(fd: fromChild[0], events: Int16(POLLIN), revents: 0)) }
            if errorsOpen { fds.append(pollfd(fd: errorsFromChild[0], events: Int16(POLLIN), revents: 0)) }
            let wait = Int32(max(1, min(100, (deadline - elapsed) * 1000)))
            let ready = poll(&fds, nfds_t(fds.count), wait)
            if ready < 0 && errno != EINTR { break }
            for entry in fds where entry.revents != 0 {
                if entry.fd == toChild[1] {
                    let n = input[written...].withUnsafeBytes { write(entry.fd, $0.baseAddress, min($0.count, 65536)) }
                    if n > 0 { written += n }
                    if n < 0 && errno != EAGAIN || written == input.count {
                        close(toChild[1])
                        inputOpen = false
                    }
                } else {
                    let n = read(entry.fd, &buffer, buffer.count)
                    if n > 0 {
                        if entry.fd == fromChild[0] {
                            output += buffer[0..<n]
                        } else if errorOutput.count < 65536 {
                            errorOutput += buffer[0..<min(n, 65536 - errorOutput.count)]
                        }
                    } else if n == 0 || errno != EAGAIN {
                        if entry.fd == fromChild[0] { outputOpen = false } else { errorsOpen = false }
                    }
                }
            }
            if output.count > outputLimit {
                ending = .outputTooLarge
                break
            }
        }
        if inputOpen { close(toChild[1]) }
        close(fromChild[0])
        close(errorsFromChild[0])
        if ending != nil { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let ending { return Outcome(ending: ending, output: output, errorOutput: errorOutput) }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
        let signal = status & 0x7f
        if signal == 0 {
            return Outcome(ending: .exited((status >> 8) & 0xff), output: output, errorOutput: errorOutput)
        }
        return Outcome(ending: .signalled(signal), output: output, errorOutput: errorOutput)
    }

    /// A pipe whose ends close on exec (only the ends dup2'd onto 0, 1 and 2 reach the child).
    private static func makePipe(_ fds: inout [Int32]) -> Int32 {
        guard pipe(&fds) == 0 else { return -1 }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return 0
    }
}
