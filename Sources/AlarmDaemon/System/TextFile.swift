import Foundation

/// A file's text, nil when it cannot be read. Not `String(contentsOfFile:)`: Foundation (Swift 6.3)
/// leaks a 4 KiB buffer each time that reads an empty file, and some files alarmd reads may be
/// empty on purpose (a sandbox's `.flatpak-info` that an app controls, a truncated config).
func readTextFile(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.readToEnd() else { return "" }
    return String(decoding: data, as: UTF8.self)
}
