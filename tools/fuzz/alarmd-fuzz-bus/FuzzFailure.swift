/// Why a run could not go on or did not pass.
struct FuzzFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
