// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

/// A button of alarmd's notifications, by its action key (the Notifications spec's `actions`).
public enum AlertAction: String, Sendable, CaseIterable {
    case stop
    case secondary
    /// A click on the notification itself: the spec's default action.
    case open = "default"
}

/// What the user did with an alarm's notification (AlarmKit's alert on the desktop).
public enum AlertAnswer: Equatable, Sendable {
    case action(AlertAction)
    /// Closed by the user: the answer to a ringing alarm is to stop it.
    case dismissed
    /// Closed by the server on expiry: a ringing alarm must keep its buttons.
    case expired

    /// nil for an action key alarmd never offers.
    public init?(action key: String) {
        guard let a = AlertAction(rawValue: key) else { return nil }
        self = .action(a)
    }

    /// The Desktop Notifications spec's reasons in `NotificationClosed`.
    enum CloseReason: UInt32, Sendable {
        case expired = 1
        case dismissed = 2
        /// Closed by `CloseNotification`: alarmd itself.
        case closedByCall = 3
        case undefined = 4
    }

    /// From a NotificationClosed reason; nil for those that are no answer (alarmd closed it, or
    /// the server does not say) and for numbers the spec does not define.
    public init?(closedBecause reason: UInt32) {
        switch CloseReason(rawValue: reason) {
        case .expired?: self = .expired
        case .dismissed?: self = .dismissed
        case .closedByCall?, .undefined?, nil: return nil
        }
    }

    /// What the answer means for `a` (the alarm as the engine holds it now, or as it was when its
    /// notification was shown): the command that the commit path plans like any caller's, and what
    /// goes to the app or the desktop. Whether the command is allowed now is the engine's to say.
    public func response(for a: Alarm) -> AlertResponse {
        let p = a.config.presentation
        switch self {
        case .action(.stop):
            return AlertResponse(command: .stop(id: a.id), appAction: p.stopAction.nonEmpty)
        case .action(.secondary):
            // `custom` runs the app's action alone: the alarm rings on until stopped.
            return AlertResponse(command: p.secondaryButtonBehavior == .countdown ? .countdown(id: a.id) : nil,
                                 appAction: p.secondaryAction.nonEmpty)
        case .action(.open):
            return AlertResponse(url: p.tapAction.nonEmpty)
        case .dismissed:
            return AlertResponse(command: a.state == .alerting ? .stop(id: a.id) : nil)
        case .expired:
            return AlertResponse(showAgain: a.state == .alerting)
        }
    }
}

/// What an answer to an alert asks for; nil or false for nothing.
public struct AlertResponse: Equatable, Sendable {
    /// The change to submit, as the user's own tools would ask it.
    public var command: Command?
    /// The app's action (a GAction name) to activate on it.
    public var appAction: String?
    /// The URL to open.
    public var url: String?
    /// Show the ringing alarm's alert again.
    public var showAgain: Bool

    init(command: Command? = nil, appAction: String? = nil, url: String? = nil, showAgain: Bool = false) {
        self.command = command
        self.appAction = appAction
        self.url = url
        self.showAgain = showAgain
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
