// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmCore

/// One method call of a client on one alarm it owns: what it sends, and what the contract says it
/// must do to the alarm as it was.
public struct Call: Sendable {
    public enum Action: Sendable, Equatable {
        /// `Schedule` with the client's own id.
        case schedule(cls: AlarmClass, title: String, subtitle: String, fixedDate: Int64?, duration: UInt64?, postAlert: UInt32)
        /// `Update` of a far alarm changing three keys at once (title, subtitle, fixed_date) and its metadata.
        case retitle(title: String, subtitle: String, fixedDate: Int64)
        /// `Update` setting `status` and clearing `subtitle`.
        case restatus(status: String)
        /// `Update` of a long timer: a new duration (which re-arms it) and title.
        case rearm(title: String, duration: UInt64)
        case cancel, stop, pause, resume
        /// `Countdown`: snooze a ringing timer for `post_alert` seconds.
        case snooze
    }

    /// Unique in the run; also the `metadata["op"]` of the configuration it sets.
    public let number: Int64
    public let id: String
    public let owner: Int
    public let action: Action

    public init(number: Int64, id: String, owner: Int, action: Action) {
        self.number = number
        self.id = id
        self.owner = owner
        self.action = action
    }

    public var member: String {
        switch action {
        case .schedule: return "Schedule"
        case .retitle, .restatus, .rearm: return "Update"
        case .cancel: return "Cancel"
        case .stop: return "Stop"
        case .pause: return "Pause"
        case .resume: return "Resume"
        case .snooze: return "Countdown"
        }
    }

    /// The call as the call log shows it: its member and what it changes.
    public var summary: String {
        switch action {
        case .schedule(let cls, _, _, let fixedDate, let duration, _):
            return "Schedule(\(cls.rawValue), \(fixedDate.map { "fixed_date \($0)" } ?? "duration \(duration ?? 0)"))"
        case .retitle: return "Update(title, subtitle, fixed_date)"
        case .restatus: return "Update(status; clear subtitle)"
        case .rearm(_, let duration): return "Update(duration \(duration), title)"
        default: return member
        }
    }

    public var arguments: [Value] {
        let metadata: (String, Value) = ("metadata", .vardict([("op", .int64(number))]))
        switch action {
        case .schedule(_, let title, let subtitle, let fixedDate, let duration, let postAlert):
            var config: [(String, Value)] = [("title", .string(title)), ("subtitle", .string(subtitle)), metadata]
            if let fixedDate { config.append(("fixed_date", .int64(fixedDate))) }
            if let duration { config.append(("duration", .uint64(duration))) }
            if postAlert != 300 { config.append(("post_alert", .uint32(postAlert))) }
            return [.string(id), .vardict(config)]
        case .retitle(let title, let subtitle, let fixedDate):
            return [.string(id), .vardict([("title", .string(title)), ("subtitle", .string(subtitle)),
                                           ("fixed_date", .int64(fixedDate)), metadata]), .strings([])]
        case .restatus(let status):
            return [.string(id), .vardict([("status", .string(status)), metadata]), .strings(["subtitle"])]
        case .rearm(let title, let duration):
            return [.string(id), .vardict([("duration", .uint64(duration)), ("title", .string(title)), metadata]), .strings([])]
        case .cancel, .stop, .pause, .resume, .snooze:
            return [.string(id)]
        }
    }

    /// What the call must do.
    public enum Prediction: Equatable, Sendable {
        /// Succeed, leaving the alarm so (nil: gone).
        case becomes(Expected?)
        /// Fail with this error, changing nothing.
        case refused(String)
    }

    /// The contract's answer to this call on `pre`, the daemon's "now" lying in `window`.
    public func predict(_ pre: Expected?, window: ClosedRange<USec>) -> Prediction {
        let tag = number
        func countdown(of seconds: UInt64) -> Timing {
            let total = seconds * usecPerSecond
            return .counting(fire: window.lowerBound + total...window.upperBound + total, total: total)
        }
        if case .schedule(let cls, let title, let subtitle, let fixedDate, let duration, let postAlert) = action {
            guard pre == nil else { return .refused(Contract.ErrorName.alreadyExists) }
            let timing = fixedDate.map { Timing.scheduled(fire: UInt64($0) * usecPerSecond) } ?? countdown(of: duration ?? 0)
            return .becomes(Expected(cls: cls, title: title, subtitle: subtitle, tag: tag, fixedDate: fixedDate, duration: duration,
                                     postAlert: postAlert, timing: timing))
        }
        guard var e = pre else { return .refused(Contract.ErrorName.notFound) }
        let invalid = Prediction.refused(Contract.ErrorName.invalidState)
        switch action {
        case .schedule:
            return invalid
        case .retitle(let title, let subtitle, let fixedDate):
            e.title = title
            e.subtitle = subtitle
            e.fixedDate = fixedDate
            e.tag = tag
            e.timing = .scheduled(fire: UInt64(fixedDate) * usecPerSecond)
            return .becomes(e)
        case .restatus(let status):
            e.status = status
            e.subtitle = ""
            e.tag = tag
            return .becomes(e)
        case .rearm(let title, let duration):
            e.title = title
            e.duration = duration
            e.tag = tag
            e.timing = countdown(of: duration)
            return .becomes(e)
        case .cancel:
            return .becomes(nil)
        case .stop:
            // Every alarm here is a one-shot: a stopped one is gone.
            guard case .alerting = e.timing else { return invalid }
            return .becomes(nil)
        case .pause:
            guard case .counting(let fire, let total) = e.timing else { return invalid }
            // Counted so far = total − (fire − now), with now in the window.
            let low = (total + window.lowerBound).minusSaturating(fire.upperBound)
            let high = (total + window.upperBound).minusSaturating(fire.lowerBound)
            e.timing = .paused(elapsed: min(low, total)...min(high, total), total: total)
            return .becomes(e)
        case .resume:
            guard case .paused(let elapsed, let total) = e.timing else { return invalid }
            e.timing = .counting(fire: window.lowerBound + total.minusSaturating(elapsed.upperBound)...window.upperBound + total.minusSaturating(elapsed.lowerBound),
                                 total: total)
            return .becomes(e)
        case .snooze:
            guard case .alerting = e.timing else { return invalid }
            e.timing = countdown(of: UInt64(e.postAlert))
            return .becomes(e)
        }
    }

    /// The occurrence this call ends when it succeeds on `pre` (Stop, a snooze, or a Cancel of a
    /// ringing alarm).
    public func ends(_ pre: Expected?) -> USec? {
        guard case .alerting(let fire)? = pre?.timing else { return nil }
        switch action {
        case .stop, .snooze, .cancel: return fire
        default: return nil
        }
    }
}
