/// Where a problem found while resolving a spec against its model is said: the spec (with the key path
/// the message starts with), or, for what the model itself declares, the model file at its line.
extension PlanResolver {
    /// A problem with what the spec asks.
    func fail(_ message: String) -> FileError { FileError(path: specPath, message: message) }

    /// A problem in the model's declaration of `attribute` (a validation bound or pattern): at its line
    /// in the model file, or at the spec when the model has no file (one read from a store's cache).
    func modelFail(_ attribute: Attribute, _ message: String) -> FileError {
        let message = message.hasSuffix("in the model") ? message : message + ": fix it in the model"
        return model.path.isEmpty ? fail(message) : FileError(path: model.path, line: attribute.line > 0 ? attribute.line : nil, message: message)
    }

    var specPath: String { spec.path }
}
