// SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org>
// SPDX-License-Identifier: LGPL-2.1-or-later

import AlarmClient
import AlarmCore

/// D-Bus values as JSON: maps as objects, arrays as arrays, numbers as numbers.
enum JSON {
    static func value(_ v: Value) -> Any {
        switch v {
        case .byte(let x): return Int(x)
        case .bool(let x): return x
        case .int16(let x): return Int(x)
        case .uint16(let x): return Int(x)
        case .int32(let x): return Int(x)
        case .uint32(let x): return UInt64(x)
        case .int64(let x): return x
        case .uint64(let x): return x
        case .double(let x): return x.isFinite ? x : 0
        case .string(let s), .objectPath(let s), .signature(let s): return s
        case .array(_, let items), .structure(let items): return items.map(value)
        case .dict(_, _, let entries):
            var o: [String: Any] = [:]
            for e in entries { o[e.key.stringValue ?? "\(value(e.key))"] = value(e.value) }
            return o
        case .variant(let inner): return value(inner)
        case .unixFD(let fd): return fd.description
        }
    }

    static func object(_ properties: [String: Value]) -> [String: Any] { properties.mapValues(value) }

    /// `short`: one line; `pretty`: indented. Keys sorted either way, so output diffs well.
    static func text(_ object: Any, _ mode: JSONMode = .short) -> String {
        JSONText.text(object, pretty: mode == .pretty) ?? "null"
    }
}
