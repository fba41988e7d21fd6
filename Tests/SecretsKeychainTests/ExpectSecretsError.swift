import Secrets
import Testing

/// Expects `body` to throw the ``Secrets/SecretsError`` case named `caseName` (`locked`, `authenticationRequired`…),
/// whatever its message.
func expectSecretsError(
    _ caseName: String, _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        try body()
        Issue.record("no error; expected \(caseName)", sourceLocation: sourceLocation)
    } catch let error as SecretsError {
        #expect(error.caseName == caseName, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
    }
}
