// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore
import Glibc
import SDBus
import SystemFiles

/// Which app each bus connection speaks for, resolved once per connection from what the bus driver
/// and the kernel say of it (sandbox first), and dropped when the connection goes away, so a unique
/// name can never inherit an identity.
final class Identity {
    private var cache: [String: CallerIdentity] = [:]
    /// Where `/proc` is; tests of the resolution order do not need a real sandbox.
    private let procRoot: String

    init(procRoot: String = "/proc") { self.procRoot = procRoot }

    func identity(of call: Message) -> CallerIdentity {
        guard let sender = call.sender else { return .unidentified("no sender") }
        if let known = cache[sender] { return known }
        let creds = call.senderCredentials()
        // Without a process there is nothing to tell a sandbox by: never the user's own tool then.
        let resolved = creds.pid.map { SandboxIdentity.resolve(root: root(pid: $0), appArmorLabel: creds.securityLabel, registered: nil) }
            ?? .unidentified("the bus gave no process id for it (it has gone, or it is not a local process)")
        cache[sender] = resolved
        if case .app(let id, true) = resolved { Log.info("connection \(sender) is sandboxed app \(id)") }
        if case .unidentified(let why) = resolved { Log.warning("connection \(sender): \(why); it may do nothing") }
        return resolved
    }

    /// Whose view a property read or an object lookup gets: the caller of `message`, the user's own
    /// tools outside a call (what sd-bus builds by itself), nil for a caller that may see nothing.
    func viewer(of message: Message?) -> Caller? {
        guard let message else { return .user }
        return identity(of: message).caller
    }

    /// Who the engine serves `sender` for, as it was resolved at its last call; nil for a connection
    /// never met, gone, or that may do nothing.
    func caller(ofSender sender: String) -> Caller? { cache[sender]?.caller }

    /// Who the engine serves the call for; NotAuthorized for a sandbox that cannot be told apart.
    func caller(of call: Message) throws(AlarmError) -> Caller {
        switch identity(of: call) {
        case .shell: return .user
        case .app(let id, _): return .app(id)
        case .unidentified(let why): throw .notAuthorized("the caller cannot be identified: \(why)")
        }
    }

    /// `RegisterApp`: once per connection; the same id again is harmless, a different one refused;
    /// a sandboxed app may only name its own id.
    func register(_ call: Message, app: String) throws(AlarmError) {
        let id = try AppID.validate(app)
        switch identity(of: call) {
        case .app(let existing, let sandboxed):
            if existing == id { return }
            if sandboxed { throw .notAuthorized("a sandboxed app is '\(existing)' and cannot claim '\(id)'") }
            throw .invalidState("this connection is already registered as '\(existing)'")
        case .unidentified(let why):
            throw .notAuthorized("the caller cannot be identified: \(why)")
        case .shell:
            cache[call.sender ?? ""] = .app(id, sandboxed: false)
            Log.info("connection \(call.sender ?? "?") registered as app \(id)")
        }
    }

    func forget(sender: String) {
        if case .app(let id, _)? = cache.removeValue(forKey: sender) {
            Log.info("connection \(sender) of app \(id) closed; its identity is forgotten")
        }
    }

    /// What `/proc/PID/root/.flatpak-info` says of the caller, as the sandbox sees its own root. Only a
    /// file known not to exist makes it `.plain`: a root alarmd may not look into (another user, another
    /// user namespace, a setuid sandbox) or an unreadable file still marks a possible sandbox.
    private func root(pid: pid_t) -> SandboxIdentity.Root {
        let path = "\(procRoot)/\(pid)/root/.flatpak-info"
        var st = stat()
        if stat(path, &st) != 0 {
            let e = errno
            if e == ENOENT || e == ENOTDIR { return .plain }
            let why = "\(procRoot)/\(pid)/root: \(String(cString: strerror(e)))"
            Log.warning("pid \(pid): cannot tell whether it is sandboxed (\(why)); refusing it")
            return .uninspectable(why)
        }
        guard let text = readTextFile(path) else { return .unreadableInfo("\(path) cannot be read") }
        return .flatpakInfo(text)
    }
}
