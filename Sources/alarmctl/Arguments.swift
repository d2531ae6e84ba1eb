/// A command's arguments: positionals, `--option VALUE` / `--option=VALUE`, and flags.
struct Arguments {
    var positional: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    init(_ args: [String], command: String, valued: Set<String> = [], flags known: Set<String> = []) throws(CLIError) {
        var it = args.makeIterator()
        var onlyPositional = false
        while let a = it.next() {
            if onlyPositional || !a.hasPrefix("--") || a == "--" {
                if a == "--", !onlyPositional { onlyPositional = true; continue }
                // A lone "-h" asks for help like --help.
                if a == "-h", !onlyPositional { flags.insert("help"); continue }
                positional.append(a)
                continue
            }
            let body = String(a.dropFirst(2))
            let name = String(body.prefix { $0 != "=" })
            let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            if valued.contains(name) {
                guard let v = inline ?? it.next() else { throw .usage("option --\(name) needs a value", command: command) }
                values[name] = v
            } else if known.contains(name) || name == "help" {
                if inline != nil { throw .usage("option --\(name) takes no value", command: command) }
                flags.insert(name)
            } else {
                throw .usage("unknown option --\(name) for '\(command)'", command: command)
            }
        }
    }

    var help: Bool { flags.contains("help") }
}
